import type { ErrorCode } from '@gift/shared';
import type { Env } from '../../env';
import type { UserDocument } from './user.model';

export interface PlayerAuthResult {
  user: UserDocument | null;
  error?: ErrorCode;
}

/**
 * Resolves the Authorization header of a player request.
 * PLACEHOLDER until the Telegram sign-in lands: accepts nobody.
 */
export async function authenticatePlayer(header: string | undefined, _env: Env, _now: Date): Promise<PlayerAuthResult> {
  if (!header) return { user: null };
  return { user: null, error: 'UNAUTHORIZED' };
}
