import type { Types } from 'mongoose';
import { OBJECT_ID_PATTERN, type ErrorCode } from '@gift/shared';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { verifyInitData, warnIfClockBehind, type TelegramLaunch } from '../../lib/telegramAuth';
import { readToken, signToken } from '../../lib/tokens';
import { networkKey } from '../../lib/clientAddress';
import { resolveBotToken } from '../config/config.service';
import type { UserDocument } from './user.model';
import { UserModel } from './user.model';
import { demoPlayer, upsertFromTelegram } from './users.service';

export interface PlayerAuthResult {
  user: UserDocument | null;
  error?: ErrorCode;
}

/** Web sign-in tokens live as long as a player expects an installed app to stay signed in. */
const PLAYER_TOKEN_DAYS = 30;

/**
 * A token for the installed web app, issued after the one-time code; `now` sets its start. It carries the
 * player's token version, so raising that (a block, "sign out everywhere") ends it at once.
 */
export function signPlayerToken(userId: string, secret: string, now: Date, tokenVersion = 0): string {
  return signToken({ sub: userId, ver: tokenVersion }, { secret, audience: 'player', now, expiresIn: `${PLAYER_TOKEN_DAYS}d` });
}

/** Ends every web sign-in token of the player; a Telegram launch is Telegram's to end. */
export async function endWebSessions(userId: Types.ObjectId): Promise<{ signedOut: true }> {
  await UserModel.updateOne({ _id: userId }, { $inc: { tokenVersion: 1 } });
  return { signedOut: true };
}

async function fromToken(token: string, env: Env, now: Date): Promise<PlayerAuthResult> {
  const payload = readToken(token, { secret: env.JWT_SECRET, audience: 'player', now });
  if (!payload) return { user: null, error: 'UNAUTHORIZED' };
  const subject = String(payload.sub);
  const user = OBJECT_ID_PATTERN.test(subject) ? await UserModel.findById(subject) : null;
  // a token from before the last "sign out everywhere" or block is over
  if (!user || (Number(payload.ver) || 0) !== (user.tokenVersion ?? 0)) return { user: null, error: 'UNAUTHORIZED' };
  return { user };
}

async function fromLaunch(raw: string, env: Env, now: Date, logger?: Logger, ip?: string): Promise<PlayerAuthResult> {
  const botToken = await resolveBotToken(env);
  if (!botToken) return { user: null, error: 'NOT_CONFIGURED' };
  let launch: TelegramLaunch;
  try {
    launch = verifyInitData(raw, botToken, now);
  } catch {
    return { user: null, error: 'UNAUTHORIZED' };
  }
  warnIfClockBehind(launch, now, logger);
  return { user: (await upsertFromTelegram(launch, now, ip ? networkKey(ip) : '')).user };
}

/**
 * Resolves the Authorization header of a player request:
 * `tma <initData>` (inside Telegram), `Bearer <token>` (installed web app after the one-time code),
 * `demo` (development without a bot token only). No header: no player, no error.
 */
export async function authenticatePlayer(
  header: string | undefined,
  env: Env,
  now: Date,
  logger?: Logger,
  ip?: string,
): Promise<PlayerAuthResult> {
  if (!header) return { user: null };
  const [scheme = '', ...rest] = header.trim().split(' ');
  const credential = rest.join(' ').trim();
  switch (scheme.toLowerCase()) {
    case 'tma':
      return credential ? fromLaunch(credential, env, now, logger, ip) : { user: null, error: 'UNAUTHORIZED' };
    case 'bearer':
      return credential ? fromToken(credential, env, now) : { user: null, error: 'UNAUTHORIZED' };
    case 'demo':
      if (env.NODE_ENV === 'production' || (await resolveBotToken(env))) return { user: null, error: 'UNAUTHORIZED' };
      return { user: await demoPlayer(now) };
    default:
      return { user: null, error: 'UNAUTHORIZED' };
  }
}
