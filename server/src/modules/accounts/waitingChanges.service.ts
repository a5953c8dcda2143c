import type { Router } from 'express';
import { Schema, Types } from 'mongoose';
import { changeApprovalInput, changeRejectionInput } from '@gift/shared';
import { objectId } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { operatorContext } from '../../http/adminAuth';
import { validate, type AnyModel } from '../../http/resource';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { accountUsername } from './accounts.service';
import { assertIndependentApprover } from './fourEyes.service';

/**
 * A change to a record that loosens a money brake (a coin's thresholds, a staking offer's profits), kept on the record until a
 * second, independent operator decides: `set` holds the fields as they would be stored, applied by one conditional update.
 */
export const waitingChangeSchema = new Schema(
  {
    id: { type: String, required: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    requestedAt: { type: Date, required: true },
    set: { type: Schema.Types.Mixed, required: true },
  },
  { _id: false, minimize: false },
);

/** The last decision on a record's waiting change, so a repeat of an approval a crash interrupted finishes it and no more. */
export const changeDecisionSchema = new Schema(
  {
    id: { type: String, required: true },
    status: { type: String, enum: ['approved', 'rejected'], required: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedAt: Date,
    reason: { type: String, default: '' },
    set: { type: Schema.Types.Mixed },
  },
  { _id: false, minimize: false },
);

export interface WaitingChange {
  id: string;
  requestedBy: Types.ObjectId;
  requestedAt: Date;
  set: Record<string, unknown>;
}

interface ChangeDecision extends WaitingChange {
  status: 'approved' | 'rejected';
  decidedBy?: unknown;
}

/** The fields of a record that hold its change (`waitingChange`, `lastChangeDecision`). */
interface WithChange {
  _id: unknown;
  waitingChange?: WaitingChange | null;
  lastChangeDecision?: ChangeDecision | null;
}

/** A change this operator asks for now, of the fields in `set` (as stored). */
export function askChange(set: Record<string, unknown>, operator: Operator, now: Date): WaitingChange {
  return { id: new Types.ObjectId().toHexString(), requestedBy: objectId(operator.id), requestedAt: now, set };
}

/** Where changes wait: the records' model, the console's resource name, and how the audit and a message name them. */
export interface ChangeTarget {
  model: AnyModel;
  resource: string;
  /** "this brake change": the four-eyes refusal names it. */
  what: string;
  /** The change's fields as the console reads them (decimals for amounts), for the audit. */
  present: (set: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Writes `update` (the change's fields, its decision, the change cleared) if the change `changeId` still waits on the record:
   * true when written. Absent: one conditional update. A coin's place on TON claims its keys first.
   */
  apply?: (recordId: Types.ObjectId, changeId: string, update: Record<string, unknown>) => Promise<boolean>;
}

/** One conditional update: the change's fields applied, only while it waits. */
async function applyWhileWaiting(target: ChangeTarget, recordId: unknown, changeId: string, update: Record<string, unknown>) {
  const applied = await target.model.updateOne({ _id: recordId, 'waitingChange.id': changeId }, { $set: update }, { runValidators: true });
  return applied.modifiedCount === 1;
}

/** 409: the change was decided (or replaced by a later edit) before this decision. */
function alreadyDecided(status: string): AppError {
  return new AppError('CHANGE_DECIDED', { status });
}

/** The audit of a decision, keyed by the change: written once, and by a repeat when a crash came before it. */
const auditKey = (target: ChangeTarget, changeId: string) => `change:${target.resource}:${changeId}`;

function auditDecision(target: ChangeTarget, operator: Operator, recordId: unknown, change: WaitingChange, status: string) {
  return recordAudit({
    operator,
    action: 'review',
    resource: target.resource,
    record: String(recordId),
    before: { waiting: change.id },
    after: { ...target.present(change.set), status },
    note: `${status === 'approved' ? 'Approved' : 'Rejected'} change ${change.id}`,
    key: auditKey(target, change.id),
  });
}

async function load(target: ChangeTarget, recordId: string): Promise<WithChange> {
  const record = await target.model.findById(objectId(recordId), { waitingChange: 1, lastChangeDecision: 1 }).lean<WithChange>();
  if (!record) throw new AppError('NOT_FOUND');
  return record;
}

/**
 * A second, independent operator approves the change `changeId` they saw on a record: one conditional update applies its
 * fields and clears it, so two approvals at once apply it once; a repeat by the approver after a crash writes only the audit.
 */
async function approveChange(target: ChangeTarget, recordId: string, changeId: string, operator: Operator, now: Date) {
  const record = await load(target, recordId);
  const waiting = record.waitingChange;
  if (!waiting || waiting.id !== changeId) {
    const last = record.lastChangeDecision;
    if (last?.id === changeId && last.status === 'approved' && String(last.decidedBy) === operator.id)
      return auditDecision(target, operator, record._id, last, 'approved');
    throw alreadyDecided(last?.id === changeId ? last.status : 'replaced by a later edit');
  }
  await assertIndependentApprover(String(waiting.requestedBy), operator.id, target.what);
  const decision = { ...waiting, status: 'approved', decidedBy: objectId(operator.id), decidedAt: now };
  const update = { ...waiting.set, waitingChange: null, lastChangeDecision: decision };
  const applied = target.apply
    ? await target.apply(record._id as Types.ObjectId, changeId, update)
    : await applyWhileWaiting(target, record._id, changeId, update);
  if (!applied) return approveChange(target, recordId, changeId, operator, now);
  await faultPoint('reward:after-apply');
  await auditDecision(target, operator, record._id, waiting, 'approved');
}

/** Turns down a waiting change with the reason (the operator who asked may withdraw their own): the record stays as it is. */
async function rejectChange(target: ChangeTarget, recordId: string, changeId: string, reason: string, operator: Operator, now: Date) {
  const record = await load(target, recordId);
  const waiting = record.waitingChange;
  if (!waiting || waiting.id !== changeId)
    throw alreadyDecided(record.lastChangeDecision?.id === changeId ? record.lastChangeDecision.status : 'replaced by a later edit');
  const decision = { ...waiting, status: 'rejected', decidedBy: objectId(operator.id), decidedAt: now, reason };
  const rejected = await target.model.updateOne(
    { _id: record._id, 'waitingChange.id': changeId },
    { $set: { waitingChange: null, lastChangeDecision: decision } },
  );
  if (rejected.modifiedCount !== 1) return rejectChange(target, recordId, changeId, reason, operator, now);
  await auditDecision(target, operator, record._id, waiting, 'rejected');
}

/**
 * The decision routes of a resource whose records hold a waiting change: `POST /:id/change/approve` ({id}) and
 * `/:id/change/reject` ({id, rejectReason}), each answering the record as the console reads it.
 */
export function changeRoutes(router: Router, target: ChangeTarget, reread: (id: string) => Promise<unknown>): void {
  router.post('/:id/change/approve', async (req, res) => {
    const { id } = validate(changeApprovalInput, req.body);
    await approveChange(target, req.params.id, id, operatorContext(req).operator, new Date());
    res.json(await reread(req.params.id));
  });
  router.post('/:id/change/reject', async (req, res) => {
    const { id, rejectReason } = validate(changeRejectionInput, req.body);
    await rejectChange(target, req.params.id, id, rejectReason, operatorContext(req).operator, new Date());
    res.json(await reread(req.params.id));
  });
}

/**
 * The sweep: a decision a crash left unaudited (the record changed, the audit not yet written) older than `olderThanMs` and
 * under a day old is audited once, in the name of the operator who decided, as their repeat would have.
 */
export async function recoverChangeAudits(target: ChangeTarget, olderThanMs = 30_000, now = new Date()): Promise<number> {
  const decided = await target.model
    .find(
      { 'lastChangeDecision.decidedAt': { $lte: new Date(now.getTime() - olderThanMs), $gte: new Date(now.getTime() - 24 * 3_600_000) } },
      { lastChangeDecision: 1 },
    )
    .limit(100)
    .lean<WithChange[]>();
  let finished = 0;
  for (const record of decided) {
    const decision = record.lastChangeDecision!;
    if (await isAudited(auditKey(target, decision.id))) continue;
    const decider = String(decision.decidedBy);
    await auditDecision(
      target,
      { id: decider, username: (await accountUsername(decider)) ?? decider },
      record._id,
      decision,
      decision.status,
    );
    finished++;
  }
  return finished;
}
