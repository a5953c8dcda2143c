import type { Request } from 'express';
import type { ErrorCode } from '@gift/shared';
import type { Env } from '../env';
import type { Logger } from '../lib/logger';
import type { UserDocument } from '../modules/users/user.model';
import { authenticatePlayer } from '../modules/users/playerAuth';

export interface ContextInner {
  env: Env;
  logger?: Logger;
  user: UserDocument | null;
  /** Why there is no user, when a credential was sent but refused. */
  authError?: ErrorCode;
  /** The server's clock; tests pass a fixed one. */
  now: () => Date;
  ip?: string;
}

/** Transport-free context: tests build it directly and call createCaller. */
export function createContextInner(options: Partial<ContextInner> & Pick<ContextInner, 'env'>): ContextInner {
  return { user: null, now: () => new Date(), ...options };
}

/** The tRPC adapter's context: reads the player's credential from the request. */
export async function createContext({ req }: { req: Request }, env: Env, logger?: Logger): Promise<ContextInner> {
  const auth = await authenticatePlayer(req.get('authorization'), env, new Date());
  return createContextInner({ env, logger, ip: req.ip, user: auth.user, authError: auth.error });
}

export type Context = ContextInner;
