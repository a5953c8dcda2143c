/**
 * The one rule for a Telegram mission's chat, used by the console's form and by the claim check alike: what the bot can ask
 * Telegram about (getChatMember) is a public chat by its @username, or any chat by its id. So a mission links to
 * `https://t.me/<username>` (or one of its posts, `https://t.me/<username>/123`), or to an invite link `https://t.me/+…`
 * with the chat's id, which a private chat's link does not reveal. Telegram's own pages on t.me (joinchat, addstickers,
 * share, c/…) are no chat the bot can check.
 */

/** t.me paths that are Telegram's pages, not a chat's username. */
const TELEGRAM_PAGES = new Set([
  'joinchat',
  'c',
  's',
  'addstickers',
  'addemoji',
  'addtheme',
  'addlist',
  'share',
  'proxy',
  'socks',
  'setlanguage',
  'iv',
  'login',
  'boost',
  'invoice',
  'bg',
  'contact',
  'confirmphone',
  'giftcode',
  'nft',
  'm',
]);
/** A public username: a letter first, then letters, digits and underscores, 4 to 32 in all (Telegram's own rule). */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;
/** A chat's id as the Bot API gives it: a group's or a channel's is negative (-100… for supergroups and channels). */
export const TELEGRAM_CHAT_ID = /^-?\d{5,20}$/;
const INVITE = /^\+[A-Za-z0-9_-]{8,64}$/;

export const TELEGRAM_LINK_PROBLEM =
  'Use the public link of the channel or group (https://t.me/name), or an invite link (https://t.me/+…) with its chat id';
export const TELEGRAM_CHAT_ID_PROBLEM = 'An invite link needs the chat id the bot sees there, for example -1001234567890';

type LinkProblem = { problem: string; field: 'link' | 'telegramChatId' };

/** A https://t.me link (no user, port or fragment) and a well-formed chat id (or none); else what is wrong, as `problem` says. */
function tmeLink(
  link: string | null | undefined,
  chatId: string | null | undefined,
  problem: string,
): { url: URL; id: string } | LinkProblem {
  const id = chatId?.trim() ?? '';
  if (id && !TELEGRAM_CHAT_ID.test(id)) return { problem: 'A chat id is a number, for example -1001234567890', field: 'telegramChatId' };
  let url: URL;
  try {
    url = new URL((link ?? '').trim());
  } catch {
    return { problem, field: 'link' };
  }
  if (url.protocol !== 'https:' || url.hostname !== 't.me' || url.username || url.port) return { problem, field: 'link' };
  return { url, id };
}

/** The chat the bot asks Telegram about for this link (and chat id): `@username` or the id; or why there is none. */
export function telegramMissionChat(link: string | null | undefined, chatId?: string | null): { chat: string } | LinkProblem {
  const parsed = tmeLink(link, chatId, TELEGRAM_LINK_PROBLEM);
  if ('problem' in parsed) return parsed;
  const { url, id } = parsed;
  const [first = '', second, ...rest] = url.pathname.split('/').slice(1);
  if (rest.length) return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  if (INVITE.test(first) && second === undefined) return id ? { chat: id } : { problem: TELEGRAM_CHAT_ID_PROBLEM, field: 'telegramChatId' };
  if (!USERNAME.test(first) || TELEGRAM_PAGES.has(first.toLowerCase())) return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  // a post of the chat is fine: the membership asked about is the chat's
  if (second !== undefined && !/^\d+$/.test(second)) return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  return { chat: id || `@${first}` };
}

export const TELEGRAM_BOOST_LINK_PROBLEM =
  'Use the public link of the channel (https://t.me/name or https://t.me/boost/name), or its boost link (https://t.me/boost?c=…) with its chat id';

/**
 * A boost mission's channel: what the bot asks getUserChatBoosts about (`@username` or the id) and the link Go opens, Telegram's
 * boost page of the channel. A public channel is named by any of https://t.me/name, https://t.me/name?boost or
 * https://t.me/boost/name; a private one by its boost link https://t.me/boost?c=… with the chat id the bot sees there.
 */
export function telegramBoostTarget(
  link: string | null | undefined,
  chatId?: string | null,
): { chat: string; boostLink: string } | LinkProblem {
  const parsed = tmeLink(link, chatId, TELEGRAM_BOOST_LINK_PROBLEM);
  if ('problem' in parsed) return parsed;
  const { url, id } = parsed;
  const parts = url.pathname.split('/').slice(1);
  const privateId = url.searchParams.get('c');
  if (parts.length === 1 && parts[0] === 'boost' && privateId && /^\d{5,20}$/.test(privateId)) {
    if (!id) return { problem: TELEGRAM_CHAT_ID_PROBLEM, field: 'telegramChatId' };
    return { chat: id, boostLink: `https://t.me/boost?c=${privateId}` };
  }
  const name = parts.length === 2 && parts[0] === 'boost' ? parts[1]! : parts.length === 1 ? parts[0]! : '';
  const query = [...url.searchParams.keys()];
  const plainQuery = query.length === 0 || (parts.length === 1 && query.length === 1 && query[0] === 'boost');
  if (!USERNAME.test(name) || TELEGRAM_PAGES.has(name.toLowerCase()) || !plainQuery)
    return { problem: TELEGRAM_BOOST_LINK_PROBLEM, field: 'link' };
  return { chat: id || `@${name}`, boostLink: `https://t.me/boost/${name}` };
}
