import type { NextFunction, Request, Response } from 'express';
import { hasPermission, isMoneyPermission, type AdminResource } from '@gift/shared';
import { AppError } from '../lib/errors';
import type { Logger } from '../lib/logger';
import { readToken, signToken } from '../lib/tokens';
import { consolePorts, type AdminPrincipal } from './ports';

declare module 'express-serve-static-core' {
  interface Request {
    account?: AdminPrincipal;
    /** The operator holds a permission that moves money without two-step sign-in, where it is required (production). */
    moneyNeedsTotp?: boolean;
  }
}

/** Who acts, as a hook sees it: the signed-in operator (for permission rules and the audit) and the request's logger. */
export interface OperatorContext {
  operator: AdminPrincipal;
  log: Logger;
}

/** The operator of a request that passed the permission check (every resource route has). */
export function operatorContext(req: Request): OperatorContext {
  if (!req.account) throw new AppError('UNAUTHORIZED');
  return { operator: req.account, log: req.log };
}

const TOKEN_TTL = '12h';

/**
 * A console token; `ver` is the account's token version, so raising it ends every token signed before, and `sid` its session, so
 * signing that session out ends this token alone.
 */
export function signAdminToken(
  account: { id: string; username: string; tokenVersion?: number; sessionId: string },
  secret: string,
): string {
  return signToken(
    { sub: account.id, username: account.username, ver: account.tokenVersion ?? 0, sid: account.sessionId },
    { secret, audience: 'admin', expiresIn: TOKEN_TTL },
  );
}

/**
 * 401 unless a valid token of an enabled account at its current token version, whose session is live; the account and the session
 * are re-read (two reads by id, at once) so revoked access and a signed-out session take effect at once. With `totpForMoney`
 * (production), an account holding a money permission without two-step sign-in is marked: it signs in and
 * reads, and its money-moving writes are refused until it enrols.
 */
export function requireAccount(secret: string, { totpForMoney = false }: { totpForMoney?: boolean } = {}) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match) return next(new AppError('UNAUTHORIZED'));
    const payload = readToken(match[1]!, { secret, audience: 'admin' });
    if (!payload) return next(new AppError('UNAUTHORIZED'));
    const subject = String(payload.sub);
    const version: unknown = payload.ver;
    const account = await consolePorts().accountForToken(subject, version, payload.sid);
    if (!account) return next(new AppError('UNAUTHORIZED'));
    req.account = account;
    req.moneyNeedsTotp = totpForMoney && !account.totpEnabled && account.permissions.some(isMoneyPermission);
    next();
  };
}

/**
 * 403 unless the signed-in account may read (GET) or write (anything else) this resource. With `lookups`, its
 * list and its records (GET / and GET /:id, not sub-pages) also open to the reads another permission implies.
 */
export function requirePermission(resource: AdminResource, { lookups = false }: { lookups?: boolean } = {}) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const reading = req.method === 'GET' || req.method === 'HEAD';
    const access = !reading ? 'write' : lookups && /^\/[^/]*$/.test(req.path) ? 'lookup' : 'read';
    if (!req.account || !hasPermission(req.account.permissions, resource, access)) return next(new AppError('FORBIDDEN'));
    if (access === 'write' && req.moneyNeedsTotp && isMoneyPermission(`${resource}:write`))
      return next(new AppError('TOTP_ENROLMENT_REQUIRED'));
    next();
  };
}
