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

/** The chat the bot asks Telegram about for this link (and chat id): `@username` or the id; or why there is none. */
export function telegramMissionChat(
  link: string | null | undefined,
  chatId?: string | null,
): { chat: string } | { problem: string; field: 'link' | 'telegramChatId' } {
  const id = chatId?.trim() ?? '';
  if (id && !TELEGRAM_CHAT_ID.test(id)) return { problem: 'A chat id is a number, for example -1001234567890', field: 'telegramChatId' };
  let url: URL;
  try {
    url = new URL((link ?? '').trim());
  } catch {
    return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  }
  const [first = '', second, ...rest] = url.pathname.split('/').slice(1);
  if (url.protocol !== 'https:' || url.hostname !== 't.me' || url.username || url.port || rest.length)
    return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  if (INVITE.test(first) && second === undefined) return id ? { chat: id } : { problem: TELEGRAM_CHAT_ID_PROBLEM, field: 'telegramChatId' };
  if (!USERNAME.test(first) || TELEGRAM_PAGES.has(first.toLowerCase())) return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  // a post of the chat is fine: the membership asked about is the chat's
  if (second !== undefined && !/^\d+$/.test(second)) return { problem: TELEGRAM_LINK_PROBLEM, field: 'link' };
  return { chat: id || `@${first}` };
}
