import { Types } from 'mongoose';
import { OBJECT_ID_PATTERN } from '@gift/shared';
import { AppError, badInput, forbidden } from '../../lib/errors';
import { objectId } from '../../db/ids';
import { faultPoint } from '../../lib/faults';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { AccountModel } from './account.model';
import { AccountGrantModel, type AccountGrantDocument } from './accountGrant.model';
import { assertIndependentApprover } from './fourEyes.service';
import { holds } from './holds';
import { upsertWithRetry } from '../../db/mongoErrors';

/** The operator deciding: who they are and what they hold (approving needs every permission granted). */
interface GrantDecider extends Operator {
  permissions: string[];
}

/** Money permissions an account asks for, as the account carries them until a second operator decides. */
export interface PendingGrant {
  _id: Types.ObjectId;
  permissions: string[];
  requestedBy: Types.ObjectId;
  requestedAt: Date;
}

/** A new request for the account: its id is the AccountGrant's. */
export function newPendingGrant(permissions: string[], requestedBy: string, now: Date): PendingGrant {
  return { _id: new Types.ObjectId(), permissions, requestedBy: objectId(requestedBy), requestedAt: now };
}

const auditKey = (grantId: unknown) => `account-grant:${String(grantId)}`;
const askedKey = (grantId: unknown) => `account-grant-asked:${String(grantId)}`;

async function usernameOf(id: unknown): Promise<string> {
  return (await AccountModel.findById(id, { username: 1 }).lean())?.username ?? String(id);
}

/**
 * Records (once, by its id) the AccountGrant of a request the account already carries, audited as the request of the
 * operator who asked. Called right after the write that asked; the sweep calls it for a request a crash left unrecorded.
 */
export async function recordGrantRequest(account: { _id: unknown; username: string }, pending: PendingGrant) {
  const asked = await upsertWithRetry(() =>
    AccountGrantModel.findOneAndUpdate(
      { _id: pending._id },
      {
        $setOnInsert: {
          account: objectId(String(account._id)),
          username: account.username,
          permissions: pending.permissions,
          requestedBy: pending.requestedBy,
          status: 'pending',
          decidedBy: null,
          decidedAt: null,
          rejectReason: '',
          createdAt: pending.requestedAt,
          updatedAt: pending.requestedAt,
        },
      },
      { upsert: true, returnDocument: 'after', timestamps: false },
    ),
  );
  if (asked && !(await isAudited(askedKey(pending._id))))
    await recordAudit({
      operator: { id: String(pending.requestedBy), username: await usernameOf(pending.requestedBy) },
      action: 'create',
      resource: 'account-grants',
      record: String(pending._id),
      before: null,
      after: asked.toJSON(),
      note: `${account.username}: ${pending.permissions.join(', ')}`,
      key: askedKey(pending._id),
    });
}

function checkId(id: string) {
  if (!OBJECT_ID_PATTERN.test(id)) throw badInput({ id: 'Invalid id' });
}

function decided(status: string): AppError {
  return new AppError('CHANGE_DECIDED', { status });
}

/**
 * Gives the account the permissions of an approved request, in one conditional write on the account (the request it
 * carries is cleared in the same write, so they are given once), audits it as the approver's decision, marks it applied.
 * A retry, or the sweep after a crash between any two of these, finishes it.
 */
async function applyApprovedGrant(grant: AccountGrantDocument, approver: Operator) {
  const grantedAt = grant.decidedAt ?? new Date();
  const entries = grant.permissions.map((permission) => ({
    permission,
    grantedBy: grant.requestedBy,
    approvedBy: grant.decidedBy,
    grantedAt,
    grant: grant._id,
  }));
  await AccountModel.updateOne(
    { _id: grant.account, 'pendingGrant._id': grant._id },
    {
      $set: { pendingGrant: null },
      $addToSet: { permissions: { $each: grant.permissions } },
      $push: { grants: { $each: entries } },
      // a permission change ends the account's sessions, as an edit does: its console shows what it now holds
      $inc: { tokenVersion: 1 },
    },
  );
  const account = await AccountModel.findById(grant.account, { permissions: 1, grants: 1, username: 1 }).lean();
  const given = !!account?.grants.some((entry) => String(entry.grant) === String(grant._id));
  if (!given) {
    // the account was deleted (or no longer asks): nothing is given, and the request ends saying so
    await AccountGrantModel.updateOne(
      { _id: grant._id, status: 'approved' },
      { $set: { status: 'rejected', rejectReason: account ? 'The account no longer asks for this access' : 'The account was deleted' } },
    );
    throw account ? decided('rejected') : new AppError('NOT_FOUND');
  }
  await faultPoint('account-grant:after-apply');
  await recordAudit({
    operator: approver,
    action: 'review',
    resource: 'accounts',
    record: String(grant.account),
    before: { permissions: account!.permissions.filter((permission) => !grant.permissions.includes(permission)) },
    after: { permissions: account!.permissions },
    note: `Approved ${grant.permissions.join(', ')} for ${grant.username}, asked by ${await usernameOf(grant.requestedBy)}`,
    key: auditKey(grant._id),
  });
  await faultPoint('account-grant:after-audit');
  await AccountGrantModel.updateOne({ _id: grant._id, status: 'approved' }, { $set: { status: 'applied' } });
}

/**
 * A second operator approves money permissions asked for an account: one who holds each of them (and accounts:write, by
 * the route), is not the account itself, and is independent of the operator who asked (assertIndependentApprover). One
 * conditional step from pending, so two approvals at once give them once; a repeat of an approval a crash interrupted
 * finishes it.
 */
export async function approveGrant(grantId: string, operator: GrantDecider, now: Date) {
  checkId(grantId);
  const grant = await AccountGrantModel.findById(grantId);
  if (!grant) throw new AppError('NOT_FOUND');
  if (grant.status === 'pending') {
    if (String(grant.account) === operator.id) throw forbidden('A second operator must approve this access: it is for your own account');
    const beyond = grant.permissions.filter((permission) => !holds(operator.permissions, permission));
    if (beyond.length) throw forbidden(`You can only approve access you have yourself (not ${beyond.join(', ')})`);
    await assertIndependentApprover(String(grant.requestedBy), operator.id, 'this access');
    await AccountGrantModel.updateOne(
      { _id: grant._id, status: 'pending' },
      { $set: { status: 'approved', decidedBy: objectId(operator.id), decidedAt: now } },
    );
  }
  const current = (await AccountGrantModel.findById(grantId))!;
  if (current.status === 'applied' && String(current.decidedBy) === operator.id) return current.toJSON();
  if (current.status !== 'approved' || String(current.decidedBy) !== operator.id) throw decided(current.status);
  await faultPoint('account-grant:after-approval');
  await applyApprovedGrant(current, operator);
  return (await AccountGrantModel.findById(grantId))!.toJSON();
}

/** Clears a rejected request from its account and audits the rejection (once, by its key). */
async function finishRejected(grant: AccountGrantDocument, operator: Operator) {
  await AccountModel.updateOne({ _id: grant.account, 'pendingGrant._id': grant._id }, { $set: { pendingGrant: null } });
  await recordAudit({
    operator,
    action: 'review',
    resource: 'account-grants',
    record: String(grant._id),
    before: { status: 'pending' },
    after: { status: 'rejected', rejectReason: grant.rejectReason },
    note: `Rejected ${grant.permissions.join(', ')} for ${grant.username}: ${grant.rejectReason}`,
    key: auditKey(grant._id),
  });
}

/** Turns down a request for access, with the reason; the account keeps only what it held. */
export async function rejectGrant(grantId: string, operator: Operator, reason: string, now: Date) {
  checkId(grantId);
  const rejected = await AccountGrantModel.findOneAndUpdate(
    { _id: objectId(grantId), status: 'pending' },
    { $set: { status: 'rejected', rejectReason: reason, decidedBy: objectId(operator.id), decidedAt: now } },
    { returnDocument: 'after' },
  );
  if (!rejected) {
    const current = await AccountGrantModel.findById(grantId);
    if (!current) throw new AppError('NOT_FOUND');
    // the same operator's repeat of a rejection a crash interrupted finishes it (the account no longer waits), and no more
    if (current.status !== 'rejected' || String(current.decidedBy) !== operator.id) throw decided(current.status);
    await finishRejected(current, operator);
    return current.toJSON();
  }
  await faultPoint('account-grant:after-rejection');
  await finishRejected(rejected, operator);
  return rejected.toJSON();
}

/** Ends the request an account carries when the account is deleted (nothing left to give). */
export async function dropGrantsOf(accountId: Types.ObjectId, operator: Operator, now: Date) {
  const waiting = await AccountGrantModel.find({ account: accountId, status: 'pending' }, { _id: 1 }).lean();
  for (const { _id } of waiting) await rejectGrant(String(_id), operator, 'The account was deleted', now).catch(() => undefined);
}

/**
 * Finishes what a crash interrupted, for requests older than `olderThanMs`: records a request its account carries but
 * the list lacks, gives approved ones (as their approver), clears and audits rejected ones. Returns how many it finished.
 */
export async function recoverAccountGrants(olderThanMs = 30_000, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - olderThanMs);
  let finished = 0;
  const asking = await AccountModel.find(
    { pendingGrant: { $ne: null }, 'pendingGrant.requestedAt': { $lte: before } },
    { username: 1, pendingGrant: 1 },
  )
    .limit(100)
    .lean();
  for (const account of asking) {
    const pending = account.pendingGrant as PendingGrant | null;
    if (!pending || (await AccountGrantModel.exists({ _id: pending._id }))) continue;
    await recordGrantRequest(account, pending);
    finished++;
  }
  const approved = await AccountGrantModel.find({ status: 'approved', decidedAt: { $lte: before } }).limit(100);
  for (const grant of approved) {
    try {
      await applyApprovedGrant(grant, { id: String(grant.decidedBy), username: await usernameOf(grant.decidedBy) });
      finished++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  const rejected = await AccountGrantModel.find({
    status: 'rejected',
    decidedBy: { $ne: null },
    decidedAt: { $lte: before, $gte: new Date(now.getTime() - 24 * 3_600_000) },
  }).limit(100);
  for (const grant of rejected) {
    if (await isAudited(auditKey(grant._id))) continue;
    await finishRejected(grant, { id: String(grant.decidedBy), username: await usernameOf(grant.decidedBy) });
    finished++;
  }
  return finished;
}

/** Access that moves money, asked for accounts and waiting for a second operator (the dashboard's live figures). */
export function countGrantsWaiting(): Promise<number> {
  return AccountGrantModel.countDocuments({ status: 'pending' });
}
