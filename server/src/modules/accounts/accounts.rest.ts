import { Router, type Request, type RequestHandler } from 'express';
import type { Types } from 'mongoose';
import { loginInput, totpCodeInput } from '@gift/shared';
import type { Env } from '../../env';
import { addressKey } from '../../lib/clientAddress';
import { AppError, tooManyRequests } from '../../lib/errors';
import { operatorContext, requireAccount } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { countHit, hitsSoFar, type RateLimit } from '../rateLimits/rateLimit.service';
import { accountIdByUsername, checkSignIn, login } from './accounts.service';
import { liveSessions, recordSignIn, revokeSession, revokeSessions, signInHistory, type SignInClient } from './operatorSecurity.service';
import { confirmTotpEnrolment, disableTotp, startTotpEnrolment, totpStatus, WRONG_CODE } from './totp.service';

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

/** The counters a request's failures count on: its address's, and its address's for this username. */
function lockoutsOf(req: Request, username: string): Lockout[] {
  // IPv6 addresses count by their /64, as one host holds a whole /64
  const address = addressKey(req.ip ?? '');
  return [
    { rule: FAILURES_PER_ADDRESS, subject: address },
    { rule: FAILURES_PER_USERNAME, subject: `${address}|${username.trim().toLowerCase().slice(0, 64)}` },
  ];
}

const isWrongCode = (error: unknown) =>
  error instanceof AppError && (error.code === 'TOTP_INVALID' || error.fieldErrors?.totp === WRONG_CODE);

/**
 * A two-step code checked for the signed-in operator (confirming or turning it off): refused while the sign-in counters are full, and a
 * wrong code counts on them like a wrong password, so a stolen session cannot guess its way to turning two-step sign-in off.
 */
async function withCodeLimits<T>(req: Request, check: () => Promise<T>): Promise<T> {
  const lockouts = lockoutsOf(req, operatorContext(req).operator.username);
  await refuseWhenLockedOut(lockouts, new Date());
  try {
    return await check();
  } catch (error) {
    if (isWrongCode(error)) await countFailure(lockouts, new Date());
    throw error;
  }
}

/** Where a request came from, as an operator's sign-in history and sessions show it. */
function clientOf(req: Request): SignInClient {
  return { ip: req.ip ?? '', userAgent: (req.get('user-agent') ?? '').slice(0, 300) };
}

/** The signed-in operator's own sessions and sign-in history (My account), for every operator. */
function mySecurityRoutes(router: Router, signedIn: RequestHandler) {
  const me = (req: Request) => operatorContext(req).operator;
  router.get('/accounts/me/sessions', signedIn, async (req, res) => {
    res.json(await liveSessions(me(req).id, me(req).sessionId));
  });
  // "Sign out other sessions": every one but the session of this request
  router.delete('/accounts/me/sessions', signedIn, async (req, res) => {
    res.json(await revokeSessions(me(req).id, me(req), { keep: me(req).sessionId }));
  });
  router.delete('/accounts/me/sessions/:session', signedIn, async (req, res) => {
    res.json(await revokeSession(me(req).id, String(req.params.session), me(req)));
  });
  router.get('/accounts/me/sign-ins', signedIn, async (req, res) => {
    res.json(await signInHistory(me(req).id));
  });
}

/**
 * Operators' sign-in (POST /login), identity (GET /me) and their own two-step sign-in (/accounts/me/totp), mounted before the
 * console's token check: an operator without the accounts permission manages their own.
 */
export function adminLoginRouter(env: Env): Router {
  const router = Router();

  // Only failures count: an office signing in together, however many at once, never locks itself out, and a
  // refused attempt is not a failure. The password is checked only below the limits, and a right password that
  // finishes after guesses racing it reached a limit is refused too, so the limits bound guesses under any concurrency.
  // Every attempt on an existing account is recorded with its outcome (its sign-in history), never the password or code.
  router.post('/login', async (req, res) => {
    const { username, password, totp } = validate(loginInput, req.body);
    const lockouts = lockoutsOf(req, username);
    const client = clientOf(req);
    // refused before the password is looked at: recorded on the account named, looked up only then
    const refuseLockedOut = async (accountId: () => Promise<Types.ObjectId | null>) => {
      try {
        await refuseWhenLockedOut(lockouts, new Date());
      } catch (error) {
        const id = await accountId();
        if (id) await recordSignIn(id, client, 'rate-limited');
        throw error;
      }
    };
    await refuseLockedOut(() => accountIdByUsername(username));
    const { account, outcome } = await checkSignIn(username, password, env.JWT_SECRET, { totp: totp || undefined });
    if (!account || outcome !== 'success') {
      if (account && outcome !== 'unknown-account') await recordSignIn(account._id, client, outcome);
      if (outcome === 'code-required') return void res.json({ totpRequired: true });
      // a wrong two-step code is a failure like a wrong password
      await countFailure(lockouts, new Date());
      throw new AppError(outcome === 'wrong-code' ? 'TOTP_INVALID' : 'INVALID_CREDENTIALS');
    }
    await refuseLockedOut(() => Promise.resolve(account._id));
    const session = await login(account, client, env.JWT_SECRET);
    await recordSignIn(account._id, client, 'success');
    res.json(session);
  });

  router.get('/me', requireAccount(env.JWT_SECRET), (req, res) => {
    const { id, username, permissions } = operatorContext(req).operator;
    res.json({ id, username, permissions });
  });

  const signedIn = requireAccount(env.JWT_SECRET);
  const moneyNeedsTotp = env.NODE_ENV === 'production';
  router.get('/accounts/me/totp', signedIn, async (req, res) => {
    res.json(await totpStatus(operatorContext(req).operator, moneyNeedsTotp));
  });
  router.post('/accounts/me/totp', signedIn, async (req, res) => {
    res.json(await startTotpEnrolment(operatorContext(req).operator, env.JWT_SECRET));
  });
  router.put('/accounts/me/totp', signedIn, async (req, res) => {
    const { totp } = validate(totpCodeInput, req.body);
    res.json(await withCodeLimits(req, () => confirmTotpEnrolment(operatorContext(req).operator, totp, env.JWT_SECRET)));
  });
  router.delete('/accounts/me/totp', signedIn, async (req, res) => {
    const { totp } = validate(totpCodeInput, req.body);
    res.json(await withCodeLimits(req, () => disableTotp(operatorContext(req).operator, totp, env.JWT_SECRET)));
  });
  mySecurityRoutes(router, signedIn);

  return router;
}
