import type { Types } from 'mongoose';
import { OBJECT_ID_PATTERN } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import type { AdminPrincipal } from '../../http/ports';
import { signAdminToken } from '../../http/adminAuth';
import { recordAudit } from '../audit/audit.service';
import { AccountModel } from './account.model';
import { checkMayManage } from './holds';
import { OperatorSessionModel, SESSION_HOURS, SignInAttemptModel, type SignInOutcome } from './operatorSecurity.models';

/** Where a sign-in came from, as the operator's pages show it. */
export interface SignInClient {
  ip: string;
  userAgent: string;
}

/** A session's "last seen" moves on at most this often: a console request writes nothing in between. */
const LAST_SEEN_EVERY_MS = 60_000;
/** How many of an account's latest sign-in attempts its pages show. */
const HISTORY_SHOWN = 50;

/** A new session of the account, at its current token version, lasting as long as its token. */
async function openSession(account: { _id: Types.ObjectId; tokenVersion?: number }, client: SignInClient, now: Date) {
  return OperatorSessionModel.create({
    account: account._id,
    tokenVersion: account.tokenVersion ?? 0,
    ip: client.ip,
    userAgent: client.userAgent,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_HOURS * 3600_000),
  });
}

/** A console token for the account, naming a new session of it from this client (sign-in; tests and benchmarks set up with it). */
export async function consoleToken(
  account: { _id: Types.ObjectId; username: string; tokenVersion?: number },
  secret: string,
  client: SignInClient = { ip: '', userAgent: '' },
  now = new Date(),
): Promise<string> {
  const session = await openSession(account, client, now);
  const sessionId = String(session._id);
  return signAdminToken({ id: String(account._id), username: account.username, tokenVersion: account.tokenVersion, sessionId }, secret);
}

/**
 * Whether the session a token names is the account's and neither signed out nor expired: one read by its id. Its last-seen time is
 * moved on by a conditional write only when a minute has passed since, so a busy console writes once a minute, not per request.
 */
export async function sessionIsLive(sessionId: unknown, accountId: string, now: Date): Promise<boolean> {
  if (typeof sessionId !== 'string' || !OBJECT_ID_PATTERN.test(sessionId)) return false;
  const session = await OperatorSessionModel.findById(sessionId, { account: 1, revokedAt: 1, expiresAt: 1, lastSeenAt: 1 }).lean();
  if (!session || String(session.account) !== accountId || session.revokedAt || session.expiresAt <= now) return false;
  const seenBefore = new Date(now.getTime() - LAST_SEEN_EVERY_MS);
  if (session.lastSeenAt <= seenBefore)
    await OperatorSessionModel.updateOne({ _id: session._id, lastSeenAt: { $lte: seenBefore } }, { $set: { lastSeenAt: now } });
  return true;
}

/** The account's sessions that still let it in (not signed out, not expired, not ended by a password or access change), newest first. */
export async function liveSessions(accountId: string, currentSessionId: string | undefined, now = new Date()) {
  const account = OBJECT_ID_PATTERN.test(accountId) ? await AccountModel.findById(accountId, { tokenVersion: 1 }).lean() : null;
  if (!account) throw new AppError('NOT_FOUND');
  const sessions = await OperatorSessionModel.find({
    account: account._id,
    tokenVersion: account.tokenVersion ?? 0,
    revokedAt: null,
    expiresAt: { $gt: now },
  })
    .sort({ createdAt: -1 })
    .lean();
  return sessions.map((session) => ({
    id: String(session._id),
    ip: session.ip,
    userAgent: session.userAgent,
    signedInAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    current: String(session._id) === currentSessionId,
  }));
}

/** The account's latest sign-in attempts, newest first. */
export async function signInHistory(accountId: string) {
  if (!OBJECT_ID_PATTERN.test(accountId) || !(await AccountModel.exists({ _id: accountId }))) throw new AppError('NOT_FOUND');
  const attempts = await SignInAttemptModel.find({ account: accountId }).sort({ at: -1 }).limit(HISTORY_SHOWN).lean();
  return attempts.map(({ _id, at, ip, userAgent, outcome }) => ({ id: String(_id), at, ip, userAgent, outcome }));
}

/** Records one attempt to sign in to an account (never the password or the code tried). */
export async function recordSignIn(accountId: Types.ObjectId, client: SignInClient, outcome: SignInOutcome, now = new Date()) {
  await SignInAttemptModel.create({ account: accountId, at: now, ip: client.ip, userAgent: client.userAgent, outcome });
}

const auditSignOut = (actor: AdminPrincipal, accountId: string, note: string) =>
  recordAudit({
    operator: { id: actor.id, username: actor.username },
    action: 'update',
    resource: 'accounts',
    record: accountId,
    before: null,
    after: null,
    note,
  });

/** Signs one session of the account out: its token is refused from its next request. 404 for a session not live. */
export async function revokeSession(accountId: string, sessionId: string, actor: AdminPrincipal, now = new Date()) {
  if (actor.id !== accountId) await managedAccount(accountId, actor, 'sign out');
  if (!OBJECT_ID_PATTERN.test(sessionId)) throw new AppError('NOT_FOUND');
  const ended = await OperatorSessionModel.updateOne(
    { _id: sessionId, account: accountId, revokedAt: null, expiresAt: { $gt: now } },
    { $set: { revokedAt: now, revokedBy: actor.id } },
  );
  if (ended.modifiedCount !== 1) throw new AppError('NOT_FOUND');
  if (actor.id !== accountId) await auditSignOut(actor, accountId, 'session signed out by another operator');
  return { revoked: 1 };
}

/** Signs every session of the account out but `keep` (the operator's own, signing out their other sessions). */
export async function revokeSessions(accountId: string, actor: AdminPrincipal, { keep, now = new Date() }: { keep?: string; now?: Date }) {
  if (actor.id !== accountId) await managedAccount(accountId, actor, 'sign out');
  const ended = await OperatorSessionModel.updateMany(
    { account: accountId, revokedAt: null, expiresAt: { $gt: now }, ...(keep ? { _id: { $ne: keep } } : {}) },
    { $set: { revokedAt: now, revokedBy: actor.id } },
  );
  if (actor.id !== accountId) await auditSignOut(actor, accountId, 'all sessions signed out by another operator');
  return { revoked: ended.modifiedCount };
}

/** The account another operator manages (signs out, resets): 404 when gone, 403 when it holds access the operator does not. */
async function managedAccount(accountId: string, actor: AdminPrincipal, action: string) {
  const target = OBJECT_ID_PATTERN.test(accountId)
    ? await AccountModel.findById(accountId, { permissions: 1, totpEnabled: 1 }).lean()
    : null;
  if (!target) throw new AppError('NOT_FOUND');
  checkMayManage(actor, target, action);
  return target;
}

/**
 * Resets another operator's two-step sign-in (a lost phone and recovery codes): its secret and recovery codes are forgotten, every
 * session of the account ends, and the account enrols again. Audited. An operator turns their own off on My account, with a code.
 */
export async function resetTwoStep(accountId: string, actor: AdminPrincipal, now = new Date()) {
  if (actor.id === accountId)
    throw badInput(
      { totp: 'Turn your own two-step sign-in off on My account, with a code' },
      'Turn your own two-step sign-in off on My account, with a code',
    );
  const target = await managedAccount(accountId, actor, 'reset two-step sign-in of');
  if (!target.totpEnabled)
    throw badInput({ totp: 'Two-step sign-in is not on for this account' }, 'Two-step sign-in is not on for this account');
  await AccountModel.updateOne(
    { _id: target._id },
    {
      $set: { totpEnabled: false, totpSecret: null, totpPendingSecret: null, totpRecoveryCodes: [], totpEnabledAt: null },
      // every token of the account ends with it
      $inc: { tokenVersion: 1 },
    },
  );
  await OperatorSessionModel.updateMany({ account: target._id, revokedAt: null }, { $set: { revokedAt: now, revokedBy: actor.id } });
  await recordAudit({
    operator: { id: actor.id, username: actor.username },
    action: 'update',
    resource: 'accounts',
    record: accountId,
    before: { totpEnabled: true },
    after: { totpEnabled: false },
    note: 'two-step sign-in reset by another operator',
  });
  return { totpEnabled: false };
}
