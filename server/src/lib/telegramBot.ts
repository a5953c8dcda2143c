import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import { Api, GrammyError, HttpError } from 'grammy';

/**
 * The Telegram Bot API through grammY. The API root is configurable (TELEGRAM_API_ROOT) so tests
 * talk to a local stand-in; the token never appears in errors or logs.
 */
export interface BotApi {
  apiRoot: string;
  token: string;
}

/** A player waits on these calls (a mission check, a sign-in code): no retries, a short timeout. */
const INTERACTIVE_TIMEOUT_SECONDS = 10;

export class BotApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly description: string,
    /** Seconds Telegram asked to wait (a 429). */
    readonly retryAfter?: number,
  ) {
    super(`Telegram ${method} failed (${status}): ${description}`);
    this.name = 'BotApiError';
  }
}

/** grammY's errors as the product's one Bot API error: Telegram's code and words, or 0 when unreachable. */
export function toBotApiError(error: unknown, method: string): unknown {
  if (error instanceof GrammyError) return new BotApiError(error.method, error.error_code, error.description, error.parameters.retry_after);
  // grammY already strips the token from an HttpError's message; keep only the kind of failure
  if (error instanceof HttpError) return new BotApiError(method, 0, error.error instanceof Error ? error.error.name : 'network error');
  return error;
}

/** A player blocked the bot, deleted their account, or never started it: messages cannot reach them. */
export function isUnreachableChat(error: unknown): boolean {
  return error instanceof BotApiError && error.status === 403;
}

export function interactiveApi(bot: BotApi): Api {
  return new Api(bot.token, { apiRoot: bot.apiRoot.replace(/\/$/, ''), timeoutSeconds: INTERACTIVE_TIMEOUT_SECONDS });
}

/**
 * The API for messages nobody waits on (notifications): grammY's throttler keeps to Telegram's
 * limits (30 messages a second overall, one a second per chat) and auto-retry waits out a 429's
 * retry_after. Network failures are not retried here: the notification queue tries again later.
 */
export function pacedApi(bot: BotApi): Api {
  const api = new Api(bot.token, { apiRoot: bot.apiRoot.replace(/\/$/, '') });
  api.config.use(apiThrottler());
  api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 300, rethrowHttpErrors: true, rethrowInternalServerErrors: true }));
  return api;
}

async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toBotApiError(error, method);
  }
}

/** Whether a user is in a chat: creator, administrator, member, or restricted with is_member. */
export async function isChatMember(bot: BotApi, chatId: string | number, userId: number): Promise<boolean> {
  const member = await call('getChatMember', () => interactiveApi(bot).getChatMember(chatId, userId));
  if (member.status === 'creator' || member.status === 'administrator' || member.status === 'member') return true;
  return member.status === 'restricted' && member.is_member === true;
}

/** Whether a user boosts a chat now: getUserChatBoosts lists their boosts, each until its expiration (Unix seconds). */
export async function boostsChat(bot: BotApi, chatId: string | number, userId: number, now: Date): Promise<boolean> {
  const { boosts } = await call('getUserChatBoosts', () => interactiveApi(bot).getUserChatBoosts(chatId, userId));
  return boosts.some((boost) => boost.expiration_date * 1000 > now.getTime());
}

/** The custom emoji a user shows as their emoji status (getChat of their private chat with the bot); '' when none. */
export async function emojiStatusOf(bot: BotApi, userId: number): Promise<string> {
  const chat = await call('getChat', () => interactiveApi(bot).getChat(userId));
  return chat.emoji_status_custom_emoji_id ?? '';
}

export async function sendMessage(bot: BotApi, chatId: number, text: string, extra: Parameters<Api['sendMessage']>[2] = {}): Promise<void> {
  await call('sendMessage', () => interactiveApi(bot).sendMessage(chatId, text, extra));
}
