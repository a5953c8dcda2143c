/**
 * The few Telegram Bot API methods the product calls. The API root is configurable
 * (TELEGRAM_API_ROOT) so tests talk to a local stand-in; the token never appears in errors or logs.
 */
export interface BotApi {
  apiRoot: string;
  token: string;
}

export class BotApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly description: string,
  ) {
    super(`Telegram ${method} failed (${status}): ${description}`);
    this.name = 'BotApiError';
  }
}

async function call<T>(bot: BotApi, method: string, params: Record<string, unknown>): Promise<T> {
  const url = `${bot.apiRoot.replace(/\/$/, '')}/bot${bot.token}/${method}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new BotApiError(method, 0, error instanceof Error ? error.name : 'network error');
  }
  const body = (await response.json().catch(() => ({}))) as { ok?: boolean; result?: T; description?: string };
  if (!response.ok || !body.ok) throw new BotApiError(method, response.status, body.description ?? 'no description');
  return body.result as T;
}

export type ChatMemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

/** Whether a user is in a chat: creator, administrator, member, or restricted with is_member. */
export async function isChatMember(bot: BotApi, chatId: string | number, userId: number): Promise<boolean> {
  const member = await call<{ status: ChatMemberStatus; is_member?: boolean }>(bot, 'getChatMember', { chat_id: chatId, user_id: userId });
  if (member.status === 'creator' || member.status === 'administrator' || member.status === 'member') return true;
  return member.status === 'restricted' && member.is_member === true;
}

export async function sendMessage(
  bot: BotApi,
  chatId: number,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await call(bot, 'sendMessage', { chat_id: chatId, text, ...extra });
}

/** "@channel" from a public t.me link (https://t.me/channel or t.me/channel/123). */
export function chatIdFromLink(link: string): string | undefined {
  const match = /^https:\/\/t\.me\/([A-Za-z0-9_]{4,})(?:[/?#].*)?$/.exec(link.trim());
  if (!match || match[1]!.toLowerCase() === 'joinchat') return undefined;
  return `@${match[1]}`;
}
