import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Types } from 'mongoose';
import { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TTL_SECONDS } from '@gift/shared';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { isUnreachableChat, sendMessage } from '../../lib/telegramBot';
import { resolveBotToken } from '../config/config.service';
import { LoginCodeModel } from './loginCode.model';
import { signPlayerToken } from './playerAuth';
import { UserModel } from './user.model';

/** A player may ask for a new code once a minute, and for at most this many codes an hour. */
const LOGIN_CODE_RESEND_SECONDS = 60;
const LOGIN_CODES_PER_HOUR = 5;

const CODE_MESSAGE = {
  en: (code: string) => `Your sign-in code: <code>${code}</code>\nIt works for 5 minutes. If you did not ask for it, ignore this message.`,
  fa: (code: string) => `کد ورود شما: <code>${code}</code>\nاین کد ۵ دقیقه اعتبار دارد. اگر شما آن را درخواست نکرده‌اید، این پیام را نادیده بگیرید.`,
};

/** Codes are stored only as an HMAC under a key derived from the server secret, bound to the player. */
function hashCode(userId: Types.ObjectId, code: string, secret: string): string {
  const pepper = createHmac('sha256', secret).update('login-code').digest();
  return createHmac('sha256', pepper)
    .update(`${String(userId)}:${code}`)
    .digest('hex');
}

/** The player a username names: the one who most recently launched the app with it. */
function playerByUsername(username: string) {
  return UserModel.findOne({ usernameLower: username.toLowerCase(), isDemo: { $ne: true } }).sort({ lastSeenAt: -1 });
}

/**
 * The same answer whatever happened, so the form never tells whether a username plays here or
 * whether the bot may message them; the client explains that the player must have opened the app
 * in Telegram (with messages allowed) to receive a code.
 */
const REQUESTED = { expiresInSeconds: LOGIN_CODE_TTL_SECONDS, resendInSeconds: LOGIN_CODE_RESEND_SECONDS } as const;

/** Runs work after the answer has gone out (the tRPC context's afterResponse). */
export type AfterResponse = (task: () => Promise<unknown>) => void;

/**
 * Answers at once, the same for every username, and only after the answer looks the player up and
 * has the bot send a 6-digit code: neither the answer nor its timing tells whether a username plays here.
 */
export async function requestLoginCode(username: string, env: Env, now: Date, afterResponse: AfterResponse, logger?: Logger) {
  const botToken = await resolveBotToken(env);
  if (!botToken) throw new AppError('NOT_CONFIGURED');
  afterResponse(() => issueLoginCode(username, { env, botToken, now, logger }));
  return REQUESTED;
}

/** Creates a code for the player a username names, when they may have one now, and sends it. */
async function issueLoginCode(username: string, { env, botToken, now, logger }: { env: Env; botToken: string; now: Date; logger?: Logger }) {
  const user = await playerByUsername(username);
  if (!user || user.blocked || !user.messagePermission) return;

  const hourAgo = new Date(now.getTime() - 3600_000);
  if ((await LoginCodeModel.countDocuments({ user: user._id, createdAt: { $gt: hourAgo } })) >= LOGIN_CODES_PER_HOUR) return;

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // one conditional upsert: a code is created only when none was in the last minute, so parallel requests send one
  const resendFrom = new Date(now.getTime() - LOGIN_CODE_RESEND_SECONDS * 1000);
  const issued = await LoginCodeModel.findOneAndUpdate(
    { user: user._id, createdAt: { $gt: resendFrom } },
    {
      $setOnInsert: {
        codeHash: hashCode(user._id, code, env.JWT_SECRET),
        attempts: 0,
        expiresAt: new Date(now.getTime() + LOGIN_CODE_TTL_SECONDS * 1000),
        usedAt: null,
        createdAt: now,
        updatedAt: now,
      },
    },
    { upsert: true, returnDocument: 'after', includeResultMetadata: true, timestamps: false },
  );
  if (issued.lastErrorObject?.updatedExisting !== false) return;

  try {
    await sendLoginCode(user, code, { env, botToken });
  } catch (error) {
    // an undelivered code must not hold back the next request
    await LoginCodeModel.deleteOne({ _id: issued.value!._id });
    // a player who blocked the bot cannot get codes (or notifications) until they start it again
    if (isUnreachableChat(error)) await UserModel.updateOne({ _id: user._id }, { $set: { messagePermission: false } });
    logger?.warn({ err: error, userId: String(user._id) }, 'login code not delivered');
  }
}

/** The one place a sign-in code leaves the server: the bot's message to the player's chat, in their language. */
async function sendLoginCode(user: { telegramId: number; language?: string | null }, code: string, { env, botToken }: { env: Env; botToken: string }) {
  const text = CODE_MESSAGE[user.language === 'fa' ? 'fa' : 'en'](code);
  await sendMessage({ apiRoot: env.TELEGRAM_API_ROOT, token: botToken }, user.telegramId, text, { parse_mode: 'HTML' });
}

/**
 * Checks the code of the player's latest request and returns a player token.
 * Every try counts first (a conditional increment, so parallel guesses cannot pass the limit):
 * the 6th try is refused even with the right code.
 */
export async function verifyLoginCode(username: string, code: string, env: Env, now: Date) {
  const user = await playerByUsername(username);
  const latest = user ? await LoginCodeModel.findOne({ user: user._id }).sort({ createdAt: -1, _id: -1 }) : null;
  if (!user || !latest) throw new AppError('INCORRECT_CODE');
  if (latest.usedAt || latest.expiresAt.getTime() <= now.getTime()) throw new AppError('CODE_EXPIRED');

  const counted = await LoginCodeModel.findOneAndUpdate(
    { _id: latest._id, usedAt: null, attempts: { $lt: LOGIN_CODE_MAX_ATTEMPTS } },
    { $inc: { attempts: 1 } },
    { timestamps: false },
  );
  if (!counted) {
    const current = await LoginCodeModel.findById(latest._id, { usedAt: 1 }).lean();
    throw new AppError(current?.usedAt ? 'CODE_EXPIRED' : 'TOO_MANY_ATTEMPTS');
  }
  const expected = Buffer.from(latest.codeHash, 'hex');
  const given = Buffer.from(hashCode(user._id, code, env.JWT_SECRET), 'hex');
  if (!timingSafeEqual(expected, given)) throw new AppError('INCORRECT_CODE');

  const used = await LoginCodeModel.updateOne({ _id: latest._id, usedAt: null }, { $set: { usedAt: now } }, { timestamps: false });
  if (used.modifiedCount !== 1) throw new AppError('CODE_EXPIRED');
  return { token: signPlayerToken(String(user._id), env.JWT_SECRET, now) };
}
