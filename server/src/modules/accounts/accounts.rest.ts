import { Router } from 'express';
import { loginInput } from '@gift/shared';
import type { Env } from '../../env';
import { addressKey } from '../../lib/clientAddress';
import { AppError, tooManyRequests } from '../../lib/errors';
import { operatorContext, requireAccount } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { countHit, hitsSoFar, type RateLimit } from '../rateLimits/rateLimit.service';
import { login } from './accounts.service';

/** Failed sign-ins allowed per address and username, then per address over all usernames, in each 15-minute window. */
const FAILURES_PER_USERNAME: RateLimit = { name: 'console-sign-in-username', limit: 10, windowSeconds: 15 * 60 };
const FAILURES_PER_ADDRESS: RateLimit = { name: 'console-sign-in-address', limit: 50, windowSeconds: 15 * 60 };

interface Lockout {
  rule: RateLimit;
  subject: string;
}

function secondsUntil(resetAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
}

/** 429 once any of the counters holds as many failures as its limit allows; looking adds nothing. */
async function refuseWhenLockedOut(lockouts: Lockout[], now: Date) {
  const counts = await Promise.all(lockouts.map(({ rule, subject }) => hitsSoFar(rule, subject, now)));
  const full = counts.find(({ count }, i) => count >= lockouts[i]!.rule.limit);
  if (full) throw tooManyRequests(secondsUntil(full.resetAt, now));
}

/**
 * Counts one failure on every counter; the failure that goes beyond a limit (a guess racing others) is answered 429 like the ones after
 * it.
 */
async function countFailure(lockouts: Lockout[], now: Date) {
  const hits = await Promise.all(lockouts.map(({ rule, subject }) => countHit(rule, subject, now)));
  const beyond = hits.find((hit) => !hit.allowed);
  if (beyond) throw tooManyRequests(secondsUntil(beyond.resetAt, now));
}

/** Operators' sign-in (POST /login) and identity (GET /me), mounted before the console's token check. */
export function adminLoginRouter(env: Env): Router {
  const router = Router();

  // Only failures count: an office signing in together, however many at once, never locks itself out, and a
  // refused attempt is not a failure. The password is checked only below the limits, and a right password that
  // finishes after guesses racing it reached a limit is refused too, so the limits bound guesses under any concurrency.
  router.post('/login', async (req, res) => {
    const { username, password } = validate(loginInput, req.body);
    // IPv6 addresses count by their /64, as one host holds a whole /64
    const address = addressKey(req.ip ?? '');
    const lockouts: Lockout[] = [
      { rule: FAILURES_PER_ADDRESS, subject: address },
      { rule: FAILURES_PER_USERNAME, subject: `${address}|${username.trim().toLowerCase().slice(0, 64)}` },
    ];
    await refuseWhenLockedOut(lockouts, new Date());
    let session: Awaited<ReturnType<typeof login>>;
    try {
      session = await login(username, password, env.JWT_SECRET);
    } catch (error) {
      if (error instanceof AppError && error.code === 'INVALID_CREDENTIALS') await countFailure(lockouts, new Date());
      throw error;
    }
    await refuseWhenLockedOut(lockouts, new Date());
    res.json(session);
  });

  router.get('/me', requireAccount(env.JWT_SECRET), (req, res) => {
    const { id, username, permissions } = operatorContext(req).operator;
    res.json({ id, username, permissions });
  });

  return router;
}
