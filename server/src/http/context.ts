import type { Request, Response } from 'express';
import type { ErrorCode } from '@gift/shared';
import { isDatabaseUnavailable } from '../db/mongoErrors';
import type { Env } from '../env';
import type { Logger } from '../lib/logger';
import { playerApiPorts, type Player } from './ports';

export interface ContextInner {
  env: Env;
  logger?: Logger;
  user: Player | null;
  /** Why there is no user, when a credential was sent but refused. */
  authError?: ErrorCode;
  /** The server's clock; tests pass a fixed one. */
  now: () => Date;
  ip?: string;
  /** Runs a task once the answer has been sent (a sign-in code goes out after the same answer for everyone). */
  afterResponse: (task: () => Promise<unknown>) => void;
}

/** Transport-free context: tests build it directly and call createCaller. */
export function createContextInner(options: Partial<ContextInner> & Pick<ContextInner, 'env'>): ContextInner {
  const runNow = (task: () => Promise<unknown>) =>
    void task().catch((err: unknown) => options.logger?.error({ err }, 'after-response task failed'));
  return { user: null, now: () => new Date(), afterResponse: runNow, ...options };
}

/** The tRPC adapter's context: reads the player's credential from the request. */
export async function createContext(
  { req, res }: { req: Request; res: Response },
  env: Env,
  logger?: Logger,
  now: () => Date = () => new Date(),
): Promise<ContextInner> {
  // a database that cannot answer fails the player's calls with 503 (protectedProcedure), not the whole batch with 500
  const auth = await playerApiPorts()
    .authenticatePlayer(req.get('authorization'), env, now(), logger, req.ip)
    .catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) throw error;
      return { user: null, error: 'UNAVAILABLE' as const };
    });
  const tasks: Array<() => Promise<unknown>> = [];
  // 'close' comes once the answer is out, or the client went away: either way the task runs
  res.once('close', () => {
    for (const task of tasks) void task().catch((err: unknown) => logger?.error({ err }, 'after-response task failed'));
  });
  return createContextInner({
    env,
    logger,
    now,
    ip: req.ip,
    user: auth.user,
    authError: auth.error,
    afterResponse: (task) => void tasks.push(task),
  });
}

export type Context = ContextInner;
