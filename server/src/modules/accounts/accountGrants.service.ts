import { Types } from 'mongoose';
import { OBJECT_ID_PATTERN } from '@gift/shared';
import { AppError, badInput, forbidden } from '../../lib/errors';
import { objectId } from '../../db/ids';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { finishLeftOver, recordBeforeWrite, runOperation, type OperationKind } from '../ledger/ledger.service';
import { AccountModel } from './account.model';
import { AccountGrantModel, type AccountGrantDocument } from './accountGrant.model';
import { assertIndependentApprover } from './fourEyes.service';
import { holds } from './holds';
import { upsertWithRetry } from '../../db/mongoErrors';
import { migrateOnce } from '../../db/migrationProgress';

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
 * operator who asked: the step of the request's operation (`account-grant-ask`).
 */
async function recordGrantRequest(account: { _id: unknown; username: string }, pending: PendingGrant) {
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

/** A decision on a request, as its operation records it (`account-grant`). */
interface GrantDecision {
  grant: string;
  status: 'approved' | 'rejected';
  reason: string;
  operator: Operator;
  at: Date;
}

const ACCOUNT_GRANT = 'account-grant';
const ACCOUNT_GRANT_ASK = 'account-grant-ask';

/** The request's decision is this one: by this operator, approved (given since, or not) or rejected as asked. */
const isThis = (grant: AccountGrantDocument | null, { status, operator }: GrantDecision) =>
  !!grant &&
  String(grant.decidedBy) === operator.id &&
  (status === 'rejected' ? grant.status === 'rejected' : grant.status === 'approved' || grant.status === 'applied');

/**
 * Gives the account the permissions of an approved request, in one conditional write on the account (the request it carries is
 * cleared in the same write, so they are given once). An account deleted meanwhile, or no longer asking, is given nothing, and
 * the request ends rejected saying so.
 */
async function giveApproved(grant: AccountGrantDocument) {
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
  const account = await AccountModel.findById(grant.account, { grants: 1 }).lean();
  if (account?.grants.some((entry) => String(entry.grant) === String(grant._id))) return;
  await AccountGrantModel.updateOne(
    { _id: grant._id, status: 'approved' },
    { $set: { status: 'rejected', rejectReason: account ? 'The account no longer asks for this access' : 'The account was deleted' } },
  );
}

/** The audit of the decision, once (keyed by the request): an approval only once the account was given it. */
async function auditDecision(grant: AccountGrantDocument, { status, operator }: GrantDecision) {
  if (status === 'rejected') {
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
    return;
  }
  const account = await AccountModel.findById(grant.account, { permissions: 1, grants: 1 }).lean();
  if (!account?.grants.some((entry) => String(entry.grant) === String(grant._id))) return;
  await recordAudit({
    operator,
    action: 'review',
    resource: 'accounts',
    record: String(grant.account),
    before: { permissions: account.permissions.filter((permission) => !grant.permissions.includes(permission)) },
    after: { permissions: account.permissions },
    note: `Approved ${grant.permissions.join(', ')} for ${grant.username}, asked by ${await usernameOf(grant.requestedBy)}`,
    key: auditKey(grant._id),
  });
}

const grantOf = (operation: { data?: unknown }) => AccountGrantModel.findById((operation.data as GrantDecision).grant);

/**
 * A second operator's decision on money permissions asked for an account, as a kind of the money engine (ledger/engine.ts):
 * `account-grant`, an operation with no postings keyed by the request, the decision and the operator. Its admit takes the
 * decision, one conditional step from pending, so of decisions at once one stands and the others are refused with nothing
 * left; its steps give the account the permissions (or clear a rejected request from it), audit the decision, and mark the
 * request applied, each once. A crash anywhere is finished by the operator's repeat or the engine's sweep alone.
 */
export const accountGrantKinds: readonly OperationKind[] = [
  {
    kind: ACCOUNT_GRANT,
    admit: async (operation) => {
      const decision = operation.data as GrantDecision;
      const grant = await grantOf(operation);
      if (!grant) return new AppError('NOT_FOUND');
      if (isThis(grant, decision)) return null;
      await AccountGrantModel.updateOne(
        { _id: grant._id, status: 'pending' },
        {
          $set: {
            status: decision.status,
            decidedBy: objectId(decision.operator.id),
            decidedAt: decision.at,
            ...(decision.status === 'rejected' ? { rejectReason: decision.reason } : {}),
          },
        },
      );
      const after = await grantOf(operation);
      return isThis(after, decision) ? null : decided(after?.status ?? 'deleted');
    },
    steps: [
      {
        name: 'account',
        run: async (operation) => {
          const grant = (await grantOf(operation))!;
          if ((operation.data as GrantDecision).status === 'approved') await giveApproved(grant);
          else await AccountModel.updateOne({ _id: grant.account, 'pendingGrant._id': grant._id }, { $set: { pendingGrant: null } });
        },
      },
      { name: 'audit', run: async (operation) => auditDecision((await grantOf(operation))!, operation.data as GrantDecision) },
      {
        name: 'mark',
        run: async (operation) => {
          if ((operation.data as GrantDecision).status === 'approved')
            await AccountGrantModel.updateOne(
              { _id: (operation.data as GrantDecision).grant, status: 'approved' },
              { $set: { status: 'applied' } },
            );
        },
      },
    ],
  },
  {
    // recorded before the account's write that carries the request: admitted once the write is there, then listed
    kind: ACCOUNT_GRANT_ASK,
    admit: async (operation) => {
      const grant = objectId((operation.data as { grant: string }).grant);
      const written = (await AccountModel.exists({ 'pendingGrant._id': grant })) || (await AccountGrantModel.exists({ _id: grant }));
      // the write never came (refused, or a crash before it): nothing was asked
      return written ? null : new AppError('NOT_FOUND');
    },
    steps: [{ name: 'list', run: (operation) => listRequest(objectId((operation.data as { grant: string }).grant)) }],
  },
];

/**
 * Lists a request once: from the account that carries it, or, once decided (the account no longer carries it), from its record,
 * so its asked audit is written even if a crash came between the two. An account deleted before it was listed asks nothing.
 */
async function listRequest(grantId: Types.ObjectId) {
  const account = await AccountModel.findOne({ 'pendingGrant._id': grantId }, { username: 1, pendingGrant: 1 }).lean();
  if (account) return recordGrantRequest(account, account.pendingGrant as PendingGrant);
  const grant = await AccountGrantModel.findById(grantId).lean();
  if (grant)
    await recordGrantRequest(
      { _id: grant.account, username: grant.username },
      { _id: grant._id, permissions: grant.permissions, requestedBy: grant.requestedBy, requestedAt: grant.createdAt },
    );
}

const askKey = (grantId: unknown) => `${ACCOUNT_GRANT_ASK}:${String(grantId)}`;

/** Lists the request an account carries, should a crash have cut its ask off (an edit saved again over it). */
export function finishAsk(pending: PendingGrant): Promise<void> {
  return finishLeftOver(askKey(pending._id));
}

/**
 * Money permissions asked for an account, as an operation of the money engine (`account-grant-ask`, no postings, keyed by the
 * request): recorded before the account's write that carries the request, and finished after it by what this returns
 * (`written`: whether that write landed). Its admit finds the request on the account, its step lists and audits it; a write
 * that did not land leaves nothing (the operation is refused and removed). A crash after the write is finished by the engine's
 * sweep, which also removes the operation of a write a crash stopped.
 */
export async function askGrant(pending: PendingGrant): Promise<(written: boolean) => Promise<void>> {
  return recordBeforeWrite({
    kind: ACCOUNT_GRANT_ASK,
    key: askKey(pending._id),
    refType: 'AccountGrant',
    refId: String(pending._id),
    players: [],
    house: [],
    createdBy: pending.requestedBy,
    data: { grant: String(pending._id) },
  });
}

/** Records the decision (once per request, decision and operator) and finishes it; the request as it then stands. */
async function decide(grantId: string, decision: Omit<GrantDecision, 'grant'>) {
  await runOperation({
    kind: ACCOUNT_GRANT,
    key: `${ACCOUNT_GRANT}:${grantId}:${decision.status}:${decision.operator.id}`,
    refType: 'AccountGrant',
    refId: grantId,
    players: [],
    house: [],
    createdBy: objectId(decision.operator.id),
    data: { ...decision, grant: grantId },
  });
  return (await AccountGrantModel.findById(grantId))!;
}

/**
 * A second operator approves money permissions asked for an account: one who holds each of them (and accounts:write, by
 * the route), is not the account itself, and is independent of the operator who asked (assertIndependentApprover). One
 * decision stands however many approve at once; a repeat of an approval a crash interrupted finishes it.
 */
export async function approveGrant(grantId: string, operator: GrantDecider, now: Date) {
  checkId(grantId);
  const grant = await AccountGrantModel.findById(grantId);
  if (!grant) throw new AppError('NOT_FOUND');
  const decision = { status: 'approved' as const, reason: '', operator: { id: operator.id, username: operator.username }, at: now };
  if (grant.status === 'pending') {
    if (String(grant.account) === operator.id) throw forbidden('A second operator must approve this access: it is for your own account');
    const beyond = grant.permissions.filter((permission) => !holds(operator.permissions, permission));
    if (beyond.length) throw forbidden(`You can only approve access you have yourself (not ${beyond.join(', ')})`);
    await assertIndependentApprover(String(grant.requestedBy), operator.id, 'this access');
  } else if (!isThis(grant, { ...decision, grant: grantId })) throw decided(grant.status);
  const current = await decide(grantId, decision);
  // given nothing: the account was deleted, or no longer asks
  if (current.status === 'rejected')
    throw (await AccountModel.exists({ _id: current.account })) ? decided('rejected') : new AppError('NOT_FOUND');
  return current.toJSON();
}

/** Turns down a request for access, with the reason; the account keeps only what it held. */
export async function rejectGrant(grantId: string, operator: Operator, reason: string, now: Date) {
  checkId(grantId);
  const grant = await AccountGrantModel.findById(grantId);
  if (!grant) throw new AppError('NOT_FOUND');
  const decision = { status: 'rejected' as const, reason, operator: { id: operator.id, username: operator.username }, at: now };
  // the same operator's repeat of a rejection a crash interrupted finishes it (the account no longer waits), and no more
  if (grant.status !== 'pending' && !isThis(grant, { ...decision, grant: grantId })) throw decided(grant.status);
  return (await decide(grantId, decision)).toJSON();
}

/** Ends the request an account carries when the account is deleted (nothing left to give). */
export async function dropGrantsOf(accountId: Types.ObjectId, operator: Operator, now: Date) {
  const waiting = await AccountGrantModel.find({ account: accountId, status: 'pending' }, { _id: 1 }).lean();
  for (const { _id } of waiting) await rejectGrant(String(_id), operator, 'The account was deleted', now).catch(() => undefined);
}

/**
 * Requests an older version asked and left unlisted (it wrote the account, then the request's record, and a crash came
 * between): listed once, by the operation an ask records now. Once, at the first pass after the upgrade: an ask is an
 * operation of the engine since.
 */
export function listGrantsOfOlderVersion(): Promise<void> {
  return migrateOnce('account-grant-asked-unlisted', async () => {
    for (const account of await AccountModel.find({ pendingGrant: { $ne: null } }, { pendingGrant: 1 }).lean()) {
      const pending = account.pendingGrant as PendingGrant;
      if (!(await AccountGrantModel.exists({ _id: pending._id }))) await (await askGrant(pending))(true);
    }
    return null;
  });
}

/** Access that moves money, asked for accounts and waiting for a second operator (the dashboard's live figures). */
export function countGrantsWaiting(): Promise<number> {
  return AccountGrantModel.countDocuments({ status: 'pending' });
}
