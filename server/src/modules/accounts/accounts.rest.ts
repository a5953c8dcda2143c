import { Router, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { ERROR_MESSAGES, loginInput } from '@gift/shared';
import type { Env } from '../../env';
import { addressKey } from '../../lib/clientAddress';
import { requireAccount } from '../../rest/adminAuth';
import { validate } from '../../rest/resource';
import { MongoRateLimitStore } from '../rateLimits/rateLimit.service';
import { login } from './accounts.service';

const WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins allowed per address and username, then per address over all usernames, in each window. */
const FAILURES_PER_USERNAME = 10;
const FAILURES_PER_ADDRESS = 50;

function tooManyRequests(_req: Request, res: Response) {
  res.status(429).json({ message: ERROR_MESSAGES.RATE_LIMITED, code: 'RATE_LIMITED' });
}

function usernameOf(req: Request): string {
  const username = (req.body as { username?: unknown } | undefined)?.username;
  return typeof username === 'string' ? username.trim().toLowerCase().slice(0, 64) : '';
}

/** Operators' sign-in (POST /login) and identity (GET /me), mounted before the console's token check. */
export function adminLoginRouter(env: Env): Router {
  const router = Router();
  // only failures count, so an operator who signs in is never locked out by their own successes;
  // X-Forwarded-For is read only through TRUST_PROXY (req.ip), so its check would only warn about attackers;
  // addressKey groups IPv6 by /64, which the key generator check cannot see
  const limits = {
    windowMs: WINDOW_MS,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8' as const,
    legacyHeaders: false,
    handler: tooManyRequests,
    validate: { xForwardedForHeader: false, keyGeneratorIpFallback: false },
  };
  const perUsername = rateLimit({
    ...limits,
    limit: FAILURES_PER_USERNAME,
    store: new MongoRateLimitStore('console-sign-in-username'),
    keyGenerator: (req) => `${addressKey(req.ip ?? '')}|${usernameOf(req)}`,
  });
  const perAddress = rateLimit({
    ...limits,
    limit: FAILURES_PER_ADDRESS,
    store: new MongoRateLimitStore('console-sign-in-address'),
    keyGenerator: (req) => addressKey(req.ip ?? ''),
  });

  router.post('/login', perAddress, perUsername, async (req, res) => {
    const { username, password } = validate(loginInput, req.body);
    res.json(await login(username, password, env.JWT_SECRET));
  });

  router.get('/me', requireAccount(env.JWT_SECRET), (req, res) => {
    const { id, username, permissions } = req.account!;
    res.json({ id, username, permissions });
  });

  return router;
}
