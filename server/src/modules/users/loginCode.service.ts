import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Types } from 'mongoose';
import { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TTL_SECONDS } from '@gift/shared';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { isUnreachableChat, sendMessage } from '../../lib/telegramBot';
import { resolveBotToken } from '../config/config.service';
import { LoginCodeModel } from './loginCode.model';
import { signPlayerToken } from './playerAuth.service';
import { UserModel } from './user.model';
import { countAmount, countHit } from '../rateLimits/rateLimit.service';

/**
 * From one address (IPv6: its /64) a player gets a new code once a minute and at most 5 an hour; from all
 * addresses together at most 20 an hour, which bounds the messages anyone can make the bot send them.
 */
const LOGIN_CODE_RESEND_SECONDS = 60;
const LOGIN_CODES_PER_HOUR_PER_ADDRESS = 5;
const LOGIN_CODES_PER_HOUR = 20;

const CODE_MESSAGE = {
  en: (code: string) => `Your sign-in code: <code>${code}</code>\nIt works for 5 minutes. If you did not ask for it, ignore this message.`,
  fa: (code: string) =>
    `کد ورود شما: <code>${code}</code>\nاین کد ۵ دقیقه اعتبار دارد. اگر شما آن را درخواست نکرده‌اید، این پیام را نادیده بگیرید.`,
};

/** Codes are stored only as an HMAC under a key derived from the server secret, bound to the request. */
function hashCode(requestHash: string, code: string, secret: string): string {
  const pepper = createHmac('sha256', secret).update('login-code').digest();
  return createHmac('sha256', pepper).update(`${requestHash}:${code}`).digest('hex');
}

const hashRequest = (requestId: string) => createHash('sha256').update(requestId).digest('hex');

/** The player a username names: the one who most recently launched the app with it. */
function playerByUsername(username: string) {
  return UserModel.findOne({ usernameLower: username.toLowerCase(), isDemo: { $ne: true } }).sort({ lastSeenAt: -1 });
}

/**
 * The same answer whatever happened, so the form never tells whether a username plays here or
 * whether the bot may message them; the client explains that the player must have opened the app
 * in Telegram (with messages allowed) to receive a code.
 */
const REQUESTED: { expiresInSeconds: number; resendInSeconds: number } = {
  expiresInSeconds: LOGIN_CODE_TTL_SECONDS,
  resendInSeconds: LOGIN_CODE_RESEND_SECONDS,
};

interface Issue {
  env: Env;
  botToken: string;
  now: Date;
  /** The asker's address as limits count it (addressKey); empty without a transport. */
  address: string;
  logger?: Logger;
}

/** Runs work after the answer has gone out (the tRPC context's afterResponse). */
export type AfterResponse = (task: () => Promise<unknown>) => void;

/**
 * Answers at once, the same for every username, and only after the answer looks the player up and
 * has the bot send a 6-digit code: neither the answer nor its timing tells whether a username plays here.
 * The answer carries a request id: the code is tried with it, so nobody else's guesses can use up its tries.
 */
export async function requestLoginCode(
  username: string,
  { env, now, address, afterResponse, logger }: { env: Env; now: Date; address: string; afterResponse: AfterResponse; logger?: Logger },
) {
  const botToken = await resolveBotToken(env);
  if (!botToken) throw new AppError('NOT_CONFIGURED');
  const requestId = randomBytes(16).toString('base64url');
  afterResponse(() => issueLoginCode(username, hashRequest(requestId), { env, botToken, now, address, logger }));
  return { ...REQUESTED, requestId };
}

/** Whether the player may be sent another code now from this address, as far as the hourly limits go. */
/** One code sent per player and address in each window of the resend interval, however many requests arrive at once. */
const RESEND_SLOT = { name: 'login-code-send', limit: 1, windowSeconds: LOGIN_CODE_RESEND_SECONDS };

async function withinHourlyLimits(userId: Types.ObjectId, address: string, now: Date): Promise<boolean> {
  const recent = { user: userId, createdAt: { $gt: new Date(now.getTime() - 3600_000) } };
  const [fromAddress, fromAll] = await Promise.all([
    LoginCodeModel.countDocuments({ ...recent, address }),
    LoginCodeModel.countDocuments(recent),
  ]);
  return fromAddress < LOGIN_CODES_PER_HOUR_PER_ADDRESS && fromAll < LOGIN_CODES_PER_HOUR;
}

/**
 * Records the request and, when the username names a player who may have a code now, sends one.
 * A request that sends nothing is recorded too, with a code nobody has, so checking it answers as any other.
 */
async function issueLoginCode(username: string, requestHash: string, { env, botToken, now, address, logger }: Issue) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const request = {
    requestHash,
    usernameLower: username.toLowerCase(),
    address,
    codeHash: hashCode(requestHash, code, env.JWT_SECRET),
    attempts: 0,
    expiresAt: new Date(now.getTime() + LOGIN_CODE_TTL_SECONDS * 1000),
    usedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const sentToNobody = () =>
    LoginCodeModel.create({ ...request, codeHash: hashCode(requestHash, randomBytes(16).toString('hex'), env.JWT_SECRET) });

  const user = await playerByUsername(username);
  if (!user || user.status === 'banned' || !user.messagePermission || !(await withinHourlyLimits(user._id, address, now)))
    return void (await sentToNobody());

  // parallel requests on MongoDB would each insert below (a range is no unique key): one atomic counter per window lets one through
  const sendSlot = await countHit(RESEND_SLOT, `${String(user._id)}:${address}`, now);
  if (!sendSlot.allowed) return void (await sentToNobody());
  // one conditional upsert: a code is sent only when none went from this address in the last minute
  const resendFrom = new Date(now.getTime() - LOGIN_CODE_RESEND_SECONDS * 1000);
  const issued = await LoginCodeModel.findOneAndUpdate(
    { user: user._id, address, createdAt: { $gt: resendFrom } },
    { $setOnInsert: request },
    { upsert: true, returnDocument: 'after', includeResultMetadata: true, timestamps: false },
  );
  if (issued.lastErrorObject?.updatedExisting !== false) return void (await sentToNobody());

  try {
    await sendLoginCode(user, code, { env, botToken });
  } catch (error) {
    // an undelivered code must not hold back the next request
    await countAmount(RESEND_SLOT, `${String(user._id)}:${address}`, -1, now);
    await LoginCodeModel.updateOne({ _id: issued.value!._id }, { $set: { user: null } }, { timestamps: false });
    // a player who blocked the bot cannot get codes (or notifications) until they start it again
    if (isUnreachableChat(error)) await UserModel.updateOne({ _id: user._id }, { $set: { messagePermission: false } });
    logger?.warn({ err: error, userId: String(user._id) }, 'login code not delivered');
  }
}

/** The one place a sign-in code leaves the server: the bot's message to the player's chat, in their language. */
async function sendLoginCode(
  user: { telegramId: number; language?: string | null },
  code: string,
  { env, botToken }: { env: Env; botToken: string },
) {
  const text = CODE_MESSAGE[user.language === 'fa' ? 'fa' : 'en'](code);
  await sendMessage({ apiRoot: env.TELEGRAM_API_ROOT, token: botToken }, user.telegramId, text, { parse_mode: 'HTML' });
}

/**
 * Checks a code against the request that asked for it and returns a player token. Every try counts first
 * (a conditional increment, so parallel guesses cannot pass the limit): the 6th try of a request is refused
 * even with the right code. Tries belong to the request, so an attacker's guesses (on their own requests)
 * never use up the tries of the code the player asked for. Known and unknown usernames answer alike.
 */
export async function verifyLoginCode(input: { username: string; code: string; requestId: string }, env: Env, now: Date) {
  const requestHash = hashRequest(input.requestId);
  const request = await LoginCodeModel.findOne({ requestHash });
  if (!request || request.usernameLower !== input.username.toLowerCase()) throw new AppError('INCORRECT_CODE');
  if (request.usedAt || request.expiresAt.getTime() <= now.getTime()) throw new AppError('CODE_EXPIRED');

  const counted = await LoginCodeModel.findOneAndUpdate(
    { _id: request._id, usedAt: null, attempts: { $lt: LOGIN_CODE_MAX_ATTEMPTS } },
    { $inc: { attempts: 1 } },
    { timestamps: false },
  );
  if (!counted) {
    const current = await LoginCodeModel.findById(request._id, { usedAt: 1 }).lean();
    throw new AppError(current?.usedAt ? 'CODE_EXPIRED' : 'TOO_MANY_ATTEMPTS');
  }
  const expected = Buffer.from(request.codeHash, 'hex');
  const given = Buffer.from(hashCode(requestHash, input.code, env.JWT_SECRET), 'hex');
  if (!timingSafeEqual(expected, given) || !counted.user) throw new AppError('INCORRECT_CODE');

  const used = await LoginCodeModel.updateOne({ _id: request._id, usedAt: null }, { $set: { usedAt: now } }, { timestamps: false });
  if (used.modifiedCount !== 1) throw new AppError('CODE_EXPIRED');
  const player = await UserModel.findById(counted.user, { tokenVersion: 1 }).lean();
  if (!player) throw new AppError('INCORRECT_CODE');
  return { token: signPlayerToken(String(player._id), env.JWT_SECRET, now, player.tokenVersion) };
}

/** Removes sign-in codes an hour past their expiry, as the TTL index does on MongoDB. */
export async function removeExpiredLoginCodes(now: Date): Promise<number> {
  return (await LoginCodeModel.deleteMany({ expiresAt: { $lte: new Date(now.getTime() - 3_600_000) } })).deletedCount;
}
