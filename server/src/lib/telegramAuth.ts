import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { INIT_DATA_MAX_AGE_SECONDS } from '@gift/shared';
import type { Logger } from './logger';

/**
 * Checks the raw `initData` a Mini App launch hands to the client, as Telegram documents it:
 * https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
 * Only this signed string is trusted; `initDataUnsafe` never reaches the server.
 */

/**
 * Telegram signs `auth_date` with its own clock: a launch signed up to this far "in the future" is accepted, so a
 * server whose clock runs a few minutes behind still lets players in. Beyond it, the launch is refused.
 */
const INIT_DATA_CLOCK_SKEW_SECONDS = 10 * 60;
/** A launch signed further ahead than this says this server's clock is behind: the log says so (once a minute at most). */
const CLOCK_BEHIND_WARNING_SECONDS = 60;
let lastClockWarningAt = Number.NEGATIVE_INFINITY;

const launchUserSchema = z.looseObject({
  id: z.number().int().positive(),
  first_name: z.string(),
  last_name: z.string().optional(),
  username: z.string().optional(),
  language_code: z.string().optional(),
  is_premium: z.boolean().optional(),
  allows_write_to_pm: z.boolean().optional(),
  photo_url: z.string().optional(),
});

export type TelegramLaunchUser = z.infer<typeof launchUserSchema>;

export interface TelegramLaunch {
  user: TelegramLaunchUser;
  /** Unix seconds when Telegram signed the launch. */
  auth_date: number;
  /** The `startapp` parameter of the link that opened the app (a referral code). */
  start_param?: string;
  query_id?: string;
  chat_type?: string;
  chat_instance?: string;
  /** Every other field, as sent. */
  [field: string]: unknown;
}

type InitDataProblem = 'malformed' | 'bad-signature' | 'expired' | 'from-the-future';

class InitDataError extends Error {
  constructor(readonly problem: InitDataProblem) {
    super(`Telegram initData refused: ${problem}`);
    this.name = 'InitDataError';
  }
}

/** The data-check string: every field but `hash` (including `signature`), sorted by key, `key=value` per line. */
function dataCheckString(fields: ReadonlyMap<string, string>): string {
  return [...fields.entries()]
    .filter(([key]) => key !== 'hash')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

/** The bot's secret key, HMAC-SHA256('WebAppData', botToken), derived once per token. */
let secretOf: { botToken: string; secret: Buffer } | undefined;

/** HMAC-SHA256 of the data-check string under the key HMAC-SHA256('WebAppData', botToken), as hex. */
function initDataHash(checkString: string, botToken: string): string {
  if (secretOf?.botToken !== botToken) secretOf = { botToken, secret: createHmac('sha256', 'WebAppData').update(botToken).digest() };
  return createHmac('sha256', secretOf.secret).update(checkString).digest('hex');
}

/**
 * Launches already verified, by their exact text (issue 33). The Mini App sends the same initData with every call of a
 * session, and checking it again (parsing, sorting, an HMAC, the user's JSON) gives the same answer until it expires: so
 * a launch is verified once, and each later call with the very same text and bot token only has its age checked again.
 * Keyed by the whole text, never by its `hash` field alone (a changed field under a copied hash must miss and fail the
 * signature). Only launches that passed are kept, at most MAX_VERIFIED (the oldest go first), each until it expires.
 */
const verifiedLaunches = new Map<string, { botToken: string; launch: TelegramLaunch }>();
const MAX_VERIFIED = 10_000;

function checkAge(authDate: number, now: Date) {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (nowSeconds - authDate > INIT_DATA_MAX_AGE_SECONDS) throw new InitDataError('expired');
  if (authDate - nowSeconds > INIT_DATA_CLOCK_SKEW_SECONDS) throw new InitDataError('from-the-future');
}

function remember(text: string, botToken: string, launch: TelegramLaunch) {
  if (verifiedLaunches.size >= MAX_VERIFIED) verifiedLaunches.delete(verifiedLaunches.keys().next().value!);
  verifiedLaunches.set(text, { botToken, launch });
}

function parseFields(raw: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(raw)) {
    // a repeated field would make "the" value ambiguous between what is signed and what is read
    if (fields.has(key)) throw new InitDataError('malformed');
    fields.set(key, value);
  }
  return fields;
}

/**
 * Returns the launch if `raw` was signed for this bot and is fresh; throws InitDataError otherwise.
 * `now` is the server's clock (tests pass a fixed one).
 */
export function verifyInitData(raw: string, botToken: string, now: Date): TelegramLaunch {
  const text = raw.trim();
  const known = verifiedLaunches.get(text);
  if (known?.botToken === botToken) {
    try {
      checkAge(known.launch.auth_date, now);
    } catch (error) {
      verifiedLaunches.delete(text);
      throw error;
    }
    return known.launch;
  }
  const fields = parseFields(text);
  const hash = fields.get('hash') ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hash)) throw new InitDataError('malformed');
  const expected = Buffer.from(initDataHash(dataCheckString(fields), botToken), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) throw new InitDataError('bad-signature');

  const authDate = Number(fields.get('auth_date'));
  if (!Number.isSafeInteger(authDate) || authDate <= 0) throw new InitDataError('malformed');
  checkAge(authDate, now);

  let user: TelegramLaunchUser;
  try {
    user = launchUserSchema.parse(JSON.parse(fields.get('user') ?? ''));
  } catch {
    throw new InitDataError('malformed');
  }
  const launch: TelegramLaunch = { ...Object.fromEntries(fields), user: Object.freeze(user), auth_date: authDate };
  delete launch.hash;
  // shared by every later call with the same text: nobody may change it
  Object.freeze(launch);
  remember(text, botToken, launch);
  return launch;
}

/**
 * Logs a warning when Telegram signed `launch` more than a minute ahead of this server's clock, at most once a
 * minute: the launch is accepted, but the server's time (NTP) needs a look before the gap reaches the limit.
 */
export function warnIfClockBehind(launch: TelegramLaunch, now: Date, logger: Logger | undefined): void {
  const aheadSeconds = launch.auth_date - Math.floor(now.getTime() / 1000);
  if (aheadSeconds <= CLOCK_BEHIND_WARNING_SECONDS || Math.abs(now.getTime() - lastClockWarningAt) < 60_000) return;
  lastClockWarningAt = now.getTime();
  logger?.warn(
    { aheadSeconds, acceptedUpToSeconds: INIT_DATA_CLOCK_SKEW_SECONDS },
    `this server's clock is about ${aheadSeconds} s behind Telegram's (a launch was signed in its future); launches are refused beyond ${INIT_DATA_CLOCK_SKEW_SECONDS} s: check the server's time sync (NTP)`,
  );
}
