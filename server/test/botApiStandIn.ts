import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from '../src/env';
import { TEST_BOT_TOKEN, testEnv } from './helpers';

/**
 * A local stand-in for the Telegram Bot API, answering the methods the product calls the way
 * Telegram does: getChatMember from a membership table, sendMessage recorded (or refused with a 429
 * and retry_after, or a 403 for a player who blocked the bot), getUpdates long polling over a queue
 * of updates, sendPhoto like sendMessage (the caption as its text), setWebhook/deleteWebhook, setChatMenuButton, setMyCommands, savePreparedInlineMessage, getMe, and the Stars payments' createInvoiceLink,
 * answerPreCheckoutQuery, refundStarPayment and getStarTransactions; getUserChatBoosts from a boosts table and getChat of a user with their emoji status.
 * Refuses any token but the expected one, as Telegram does.
 */
export interface BotApiStandIn {
  apiRoot: string;
  /** chat ("@channel") -> user id -> member record */
  members: Map<string, Map<number, { status: string; is_member?: boolean }>>;
  /** Messages delivered, each with the (possibly fake) clock time it arrived. */
  sent: Array<{ chat_id: number; text: string; at: number; [key: string]: unknown }>;
  calls: Array<{ method: string; params: Record<string, unknown> }>;
  /** Chats of players who blocked the bot: sendMessage answers 403. */
  blocked: Set<number>;
  /** chat id -> seconds: the next sendMessage to that chat answers 429 with this retry_after. */
  rateLimitNext: Map<number, number>;
  /** method -> error: the next call of that method fails with it (Telegram down, a refused URL). */
  failNext: Map<string, { status: number; description: string }>;
  /** Messages saved for a player to share (savePreparedInlineMessage), as the bot sent them. */
  prepared: Array<Record<string, unknown>>;
  /** Invoice links made (createInvoiceLink): what was sent, and the link answered. */
  invoices: Array<Record<string, unknown> & { link: string }>;
  /** Answers to pre-checkout queries (answerPreCheckoutQuery), as sent. */
  preCheckoutAnswers: Array<{ pre_checkout_query_id: string; ok: boolean; error_message?: string }>;
  /** Stars payments refunded (refundStarPayment), as sent; a second refund of a charge is refused, as Telegram does. */
  refunds: Array<{ user_id: number; telegram_payment_charge_id: string }>;
  /** The bot's Star transactions, oldest first (getStarTransactions answers them in this order, by offset and limit). */
  starTransactions: Array<Record<string, unknown> & { id: string; amount: number; date: number }>;
  /** chat ("@channel") -> user id -> the expiration (Unix seconds) of each boost the user gives it (getUserChatBoosts). */
  boosts: Map<string, Map<number, number[]>>;
  /** user id -> the custom emoji id of their emoji status (getChat of the user); absent: no status. */
  emojiStatuses: Map<number, string>;
  /** The registered webhook, as setWebhook left it. */
  webhook: { url: string; secret_token?: string } | null;
  /** Queues an update for getUpdates (long polling). */
  pushUpdate: (update: Record<string, unknown>) => void;
  close: () => Promise<void>;
}

export const STAND_IN_BOT = { id: 123456789, is_bot: true, first_name: 'Gift Rewards', username: 'GiftRewardsBot' };

/** The stand-in for the test bot, and a test environment whose bot talks to it. */
export async function startBotApiWithEnv(): Promise<{ standIn: BotApiStandIn; env: Env }> {
  const standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  return { standIn, env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }) };
}

export async function startBotApiStandIn(token: string): Promise<BotApiStandIn> {
  const members: BotApiStandIn['members'] = new Map();
  const sent: BotApiStandIn['sent'] = [];
  const calls: BotApiStandIn['calls'] = [];
  const blocked = new Set<number>();
  const rateLimitNext = new Map<number, number>();
  const failNext: BotApiStandIn['failNext'] = new Map();
  const prepared: BotApiStandIn['prepared'] = [];
  const invoices: BotApiStandIn['invoices'] = [];
  const preCheckoutAnswers: BotApiStandIn['preCheckoutAnswers'] = [];
  const refunds: BotApiStandIn['refunds'] = [];
  const starTransactions: BotApiStandIn['starTransactions'] = [];
  const boosts: BotApiStandIn['boosts'] = new Map();
  const emojiStatuses: BotApiStandIn['emojiStatuses'] = new Map();
  const updates: Array<Record<string, unknown> & { update_id: number }> = [];
  let nextUpdateId = 1;
  let waiting: Array<() => void> = [];

  const state = { webhook: null as BotApiStandIn['webhook'] };
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, result: unknown) => reply(res, 200, { ok: true, result });
  const fail = (res: ServerResponse, status: number, description: string, parameters?: Record<string, unknown>) =>
    reply(res, status, { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) });

  function getUpdates(res: ServerResponse, params: Record<string, unknown>) {
    if (state.webhook)
      return fail(res, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    const offset = Number(params.offset ?? 0);
    // confirming an offset forgets every earlier update, as Telegram does
    while (updates.length && updates[0]!.update_id < offset) updates.shift();
    const answer = () => ok(res, updates.slice(0, Number(params.limit ?? 100)));
    const timeout = Math.min(Number(params.timeout ?? 0), 30);
    if (updates.length || timeout <= 0) return answer();
    const wake = () => {
      clearTimeout(timer);
      waiting = waiting.filter((w) => w !== wake);
      answer();
    };
    const timer = setTimeout(wake, timeout * 1000);
    waiting.push(wake);
    res.on('close', () => {
      clearTimeout(timer);
      waiting = waiting.filter((w) => w !== wake);
    });
  }

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match || match[1] !== token) return fail(res, 401, 'Unauthorized');
      const method = match[2]!;
      const params = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      calls.push({ method, params });
      const failure = failNext.get(method);
      if (failure) {
        failNext.delete(method);
        return fail(res, failure.status, failure.description);
      }
      switch (method) {
        case 'getMe':
          return ok(res, { ...STAND_IN_BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
        case 'getChatMember': {
          const chat = members.get(String(params.chat_id));
          if (!chat) return fail(res, 400, 'Bad Request: chat not found');
          const member = chat.get(Number(params.user_id)) ?? { status: 'left' };
          return ok(res, { user: { id: Number(params.user_id) }, ...member });
        }
        case 'getUserChatBoosts': {
          const chat = boosts.get(String(params.chat_id));
          if (!chat) return fail(res, 400, 'Bad Request: chat not found');
          const userId = Number(params.user_id);
          return ok(res, {
            boosts: (chat.get(userId) ?? []).map((expiration, index) => ({
              boost_id: `${userId}-${index}`,
              add_date: expiration - 86_400 * 30,
              expiration_date: expiration,
              source: { source: 'premium', user: { id: userId, is_bot: false, first_name: 'Player' } },
            })),
          });
        }
        case 'getChat': {
          // a user's private chat with the bot, with their emoji status when they show one
          const userId = Number(params.chat_id);
          if (!(userId > 0)) return fail(res, 400, 'Bad Request: chat not found');
          const emoji = emojiStatuses.get(userId);
          return ok(res, {
            id: userId,
            type: 'private',
            first_name: 'Player',
            accent_color_id: 0,
            max_reaction_count: 11,
            ...(emoji ? { emoji_status_custom_emoji_id: emoji } : {}),
          });
        }
        case 'sendMessage':
        case 'sendPhoto': {
          const chatId = Number(params.chat_id);
          if (blocked.has(chatId)) return fail(res, 403, 'Forbidden: bot was blocked by the user');
          const retryAfter = rateLimitNext.get(chatId);
          if (retryAfter !== undefined) {
            rateLimitNext.delete(chatId);
            return fail(res, 429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
          }
          sent.push({
            ...(params as { chat_id: number; text: string }),
            ...(method === 'sendPhoto' ? { text: typeof params.caption === 'string' ? params.caption : '' } : {}),
            method,
            at: Date.now(),
          });
          return ok(res, {
            message_id: sent.length,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: 'private' },
            text: params.text,
          });
        }
        case 'getUpdates':
          return getUpdates(res, params);
        case 'setWebhook':
          state.webhook = {
            url: String(params.url),
            ...(typeof params.secret_token === 'string' && params.secret_token ? { secret_token: params.secret_token } : {}),
          };
          return ok(res, true);
        case 'deleteWebhook':
          state.webhook = null;
          return ok(res, true);
        case 'setChatMenuButton':
        case 'setMyCommands':
          return ok(res, true);
        case 'savePreparedInlineMessage': {
          const result = params.result as { type?: unknown; id?: unknown } | undefined;
          if (typeof params.user_id !== 'number' || !result || typeof result.type !== 'string' || typeof result.id !== 'string')
            return fail(res, 400, 'Bad Request: invalid prepared message');
          prepared.push(params);
          // Telegram keeps a prepared message for a while (expiration_date, Unix seconds)
          return ok(res, { id: `prepared-${prepared.length}`, expiration_date: Math.floor(Date.now() / 1000) + 3600 });
        }
        case 'createInvoiceLink': {
          // Telegram Stars: currency XTR, no provider token, one price in whole Stars
          const prices = params.prices as Array<{ label?: unknown; amount?: unknown }> | undefined;
          if (params.currency !== 'XTR' || (params.provider_token ?? '') !== '') return fail(res, 400, 'Bad Request: CURRENCY_INVALID');
          if (!Array.isArray(prices) || prices.length !== 1 || !Number.isInteger(prices[0]?.amount) || Number(prices[0]?.amount) < 1)
            return fail(res, 400, 'Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID');
          if (typeof params.payload !== 'string' || !params.payload) return fail(res, 400, 'Bad Request: INVOICE_PAYLOAD_INVALID');
          const link = `https://t.me/$invoice${invoices.length + 1}`;
          invoices.push({ ...params, link });
          return ok(res, link);
        }
        case 'answerPreCheckoutQuery':
          if (typeof params.pre_checkout_query_id !== 'string') return fail(res, 400, 'Bad Request: QUERY_ID_INVALID');
          if (params.ok !== true && typeof params.error_message !== 'string')
            return fail(res, 400, 'Bad Request: error_message is required');
          preCheckoutAnswers.push(params as BotApiStandIn['preCheckoutAnswers'][number]);
          return ok(res, true);
        case 'refundStarPayment': {
          const charge = typeof params.telegram_payment_charge_id === 'string' ? params.telegram_payment_charge_id : '';
          if (!charge || typeof params.user_id !== 'number') return fail(res, 400, 'Bad Request: CHARGE_ID_INVALID');
          if (refunds.some((r) => r.telegram_payment_charge_id === charge)) return fail(res, 400, 'Bad Request: CHARGE_ALREADY_REFUNDED');
          refunds.push({ user_id: params.user_id, telegram_payment_charge_id: charge });
          return ok(res, true);
        }
        case 'getStarTransactions': {
          const offset = params.offset === undefined ? 0 : Number(params.offset);
          const limit = params.limit === undefined ? 100 : Number(params.limit);
          if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 100)
            return fail(res, 400, 'Bad Request: invalid offset or limit');
          return ok(res, { transactions: starTransactions.slice(offset, offset + limit) });
        }
        default:
          return fail(res, 404, 'Not Found: method not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    members,
    sent,
    calls,
    blocked,
    rateLimitNext,
    failNext,
    prepared,
    invoices,
    preCheckoutAnswers,
    refunds,
    starTransactions,
    boosts,
    emojiStatuses,
    get webhook() {
      return state.webhook;
    },
    set webhook(value) {
      state.webhook = value;
    },
    pushUpdate: (update) => {
      updates.push({ ...update, update_id: nextUpdateId++ });
      for (const wake of waiting) wake();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
