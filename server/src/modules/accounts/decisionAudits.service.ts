import type { Id } from '../../db/ids';
import { migrateOnce } from '../../db/migrationProgress';
import { accountUsername } from './accounts.service';
import { decisionsOn, type DecisionTarget } from './changeDecisions.service';
import type { ChangeTarget } from './waitingChanges.service';

/** A record's last decision on a change that loosened a money brake, as stored (the change's own fields beside it). */
export interface StoredDecision {
  id: string;
  status: 'approved' | 'rejected';
  decidedBy?: Id | null;
  decidedAt?: Date | null;
  reason?: string | null;
  [field: string]: unknown;
}

/** Where decisions were kept: the target that decides and audits them now, and each record's last decision taken `before`. */
export interface DecisionsKept {
  target: DecisionTarget;
  lastDecisions: (before: Date) => Promise<Array<{ record: string; decision: StoredDecision }>>;
}

/** The last decisions on the records of a target where changes wait (`lastChangeDecision`). */
export function keptOn(target: ChangeTarget): DecisionsKept {
  return {
    target: decisionsOn(target),
    lastDecisions: async (before) => {
      const records = await target.model
        .find({ 'lastChangeDecision.decidedAt': { $lte: before } }, { lastChangeDecision: 1 })
        .lean<Array<{ _id: unknown; lastChangeDecision: StoredDecision }>>();
      return records.map((found) => ({ record: String(found._id), decision: found.lastChangeDecision }));
    },
  };
}

/** When this process started: a decision taken before it may be an older version's. */
const startedAt = Date.now();

/**
 * Start-up, once: decisions an older version took and left without their audit (it wrote the decision on the record, then the
 * audit, and a crash came between; its sweep audited the last day's only). Each record's last decision taken before this
 * process started is audited by its target's own audit, in the name of the operator who decided, under the key the
 * `change-decision` step uses (by the change), so one audited already is left as it is and a crash mid-way and the rerun
 * write each once. A decision a later one replaced on its record is not kept anywhere, and is not audited. It waits until this
 * process has run for the sweep's grace, so every decision of this version taken before it started was audited by its step.
 */
export async function auditDecisionsOfOlderVersion(kept: readonly DecisionsKept[], graceMs: number): Promise<void> {
  if (Date.now() - startedAt < graceMs) return;
  await migrateOnce('change-decision-audits-of-older-version', async () => {
    for (const { target, lastDecisions } of kept) {
      for (const { record, decision } of await lastDecisions(new Date(startedAt))) {
        const { id, status, decidedBy, decidedAt, reason, ...change } = decision;
        if (!decidedBy || !decidedAt) continue;
        const operatorId = String(decidedBy);
        const operator = { id: operatorId, username: (await accountUsername(operatorId)) ?? operatorId };
        await target.audit({
          target: target.name,
          record,
          changeId: id,
          status,
          reason: reason ?? '',
          operator,
          at: decidedAt,
          change: { id, ...change },
        });
      }
    }
    return null;
  });
}
