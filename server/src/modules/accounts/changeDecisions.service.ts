import type { Request, Router } from 'express';
import { changeApprovalInput, changeRejectionInput } from '@gift/shared';
import { objectId } from '../../db/ids';
import { operatorContext } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { recordAudit } from '../audit/audit.service';
import { decideChange, type DecisionTarget } from './changeDecision.kinds';
import type { ChangeDecision, ChangeTarget, WaitingChange } from './waitingChanges.service';

/**
 * Decisions on changes that loosen a money brake, each an operation of the money engine (changeDecision.kinds.ts): the door
 * other modules decide through, and the decision routes of the records where changes wait (waitingChanges.service.ts).
 */
export { decideChange, type DecisionTarget } from './changeDecision.kinds';

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
