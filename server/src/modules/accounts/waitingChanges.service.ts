import type { Request, Router } from 'express';
import { Schema, Types } from 'mongoose';
import { changeApprovalInput, changeRejectionInput } from '@gift/shared';
import { objectId } from '../../db/ids';
import { operatorContext } from '../../http/adminAuth';
import { validate, type AnyModel } from '../../http/resource';
import { recordAudit, type Operator } from '../audit/audit.service';
import { decideChange, type DecisionTarget } from './changeDecision.kinds';

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

/** The audit of a decision, keyed by the change: written once. */
const auditKey = (target: ChangeTarget, changeId: string) => `change:${target.resource}:${changeId}`;

/**
 * The records of a target as where changes wait for a decision of the money engine (accounts/changeDecision.kinds.ts): the
 * decision's one conditional update applies an approved change's fields with it (a coin's place on TON claims its keys first)
 * and clears the change; its audit is the operation's step.
 */
export function decisionsOn(target: ChangeTarget): DecisionTarget {
  return {
    name: target.resource,
    what: target.what,
    replaced: 'replaced by a later edit',
    state: async ({ record }) => {
      const found = await target.model
        .findById(objectId(record), { waitingChange: 1, lastChangeDecision: 1 })
        .lean<{ waitingChange?: WaitingChange | null; lastChangeDecision?: ChangeDecision | null }>();
      return found ? { waiting: found.waitingChange ?? null, last: found.lastChangeDecision ?? null } : null;
    },
    decide: async ({ record, changeId, status, reason, operator, at, change }) => {
      const recordId = objectId(record);
      const decision = { ...change, status, decidedBy: objectId(operator.id), decidedAt: at, ...(status === 'rejected' ? { reason } : {}) };
      if (status === 'rejected') {
        const rejected = await target.model.updateOne(
          { _id: recordId, 'waitingChange.id': changeId },
          { $set: { waitingChange: null, lastChangeDecision: decision } },
        );
        return rejected.modifiedCount === 1;
      }
      const update = { ...(change as unknown as WaitingChange).set, waitingChange: null, lastChangeDecision: decision };
      return target.apply ? target.apply(recordId, changeId, update) : applyWhileWaiting(target, recordId, changeId, update);
    },
    audit: ({ record, changeId, status, operator, change }) =>
      recordAudit({
        operator,
        action: 'review',
        resource: target.resource,
        record,
        before: { waiting: changeId },
        after: { ...target.present((change as unknown as WaitingChange).set), status },
        note: `${status === 'approved' ? 'Approved' : 'Rejected'} change ${changeId}`,
        key: auditKey(target, changeId),
      }),
  };
}

/**
 * The decision routes of a resource whose records hold a waiting change: `POST /:id/change/approve` ({id}) and
 * `/:id/change/reject` ({id, rejectReason}), each answering the record as the console reads it.
 */
export function changeRoutes(router: Router, target: ChangeTarget, reread: (id: string) => Promise<unknown>): void {
  const decide = (record: string, changeId: string, status: 'approved' | 'rejected', reason: string, req: Request) =>
    decideChange(decisionsOn(target), { record, changeId, status, reason, operator: operatorContext(req).operator, at: new Date() });
  router.post('/:id/change/approve', async (req, res) => {
    const { id } = validate(changeApprovalInput, req.body);
    await decide(req.params.id, id, 'approved', '', req);
    res.json(await reread(req.params.id));
  });
  router.post('/:id/change/reject', async (req, res) => {
    const { id, rejectReason } = validate(changeRejectionInput, req.body);
    await decide(req.params.id, id, 'rejected', rejectReason, req);
    res.json(await reread(req.params.id));
  });
}
