import type { Operator } from '../audit/audit.service';
import { isAudited, recordAudit } from '../audit/audit.service';
import { takeBack } from '../clawbacks/clawBack.service';
import { entryById, runOperation, type OperationKind } from '../ledger/ledger.service';
import { ClusterCleanUpModel } from './clusterCleanUp.model';
import { setPlayerStatus } from './playerStatus.service';

/**
 * A risk cluster's clean-up, as a kind of the money engine (ledger/engine.ts): `cluster-cleanup`, one per plan (keyed
 * `cluster-cleanup:<the plan's key>`), recorded with the whole plan the operator confirmed. It moves nothing itself; its steps,
 * each run once per operation and each made of keyed parts, carry the plan out: the plan written where the console reads it
 * and audited (`cleanup:<key>`), each player banned then audited (`cleanup:<key>:<player>:ban`; a ban not yet audited is set
 * again, which changes nothing), each credit taken back through its one claw-back (a `clawback-open` operation per credit,
 * its takes keyed), then the plan marked done. The call that confirmed it, a second confirmation, or the engine's sweep
 * finishes a clean-up a process died in alike. Registered at the composition root (server/src/moneyKinds.ts).
 */

const CLUSTER_CLEANUP = 'cluster-cleanup';

export interface PlannedCredit {
  entry: string;
  user: string;
  coin: string;
  amount: number;
  side: 'member' | 'referrer';
}

/** What the operator confirmed: the cluster, the players to ban (with the status each had), the credits to take back. */
export interface CleanUpPlan {
  key: string;
  cluster: Record<string, string>;
  players: number;
  ban: { user: string; status: string }[];
  credits: PlannedCredit[];
  statusReason: string;
  fa: { statusReason: string };
}

interface CleanUpData extends CleanUpPlan {
  operator: Operator;
}

type Step = OperationKind['steps'][number];

const plan: Step = {
  // written once where the console and a later confirmation read it (an upsert on its key)
  name: 'plan',
  run: async (operation) => {
    const { operator, ...fields } = operation.data as CleanUpData;
    await ClusterCleanUpModel.updateOne(
      { key: fields.key },
      { $setOnInsert: { ...fields, createdBy: operator.id } },
      { upsert: true, setDefaultsOnInsert: true },
    );
  },
};

const audit: Step = {
  name: 'audit',
  run: async (operation) => {
    const { operator, key, cluster, ban, credits, statusReason } = operation.data as CleanUpData;
    await recordAudit({
      operator,
      action: 'adjust',
      resource: 'users',
      // a referrer's friends are audited on the referrer's page
      record: cluster.referrer ?? String(operation._id),
      before: null,
      after: { cleanUp: key, cluster, banned: ban.length, credits: credits.length },
      note: statusReason,
      key: `cleanup:${key}`,
    });
  },
};

const bans: Step = {
  name: 'bans',
  run: async (operation) => {
    const { operator, key, ban, statusReason, fa } = operation.data as CleanUpData;
    for (const { user, status } of ban) {
      const audited = `cleanup:${key}:${user}:ban`;
      if (await isAudited(audited)) continue;
      await setPlayerStatus(user, { status: 'banned', statusReason, fa }, new Date());
      await recordAudit({
        operator,
        action: 'update',
        resource: 'users',
        record: user,
        before: { status },
        after: { status: 'banned', statusReason, cleanUp: key },
        note: statusReason,
        key: audited,
      });
    }
  },
};

const takes: Step = {
  name: 'takes',
  run: async (operation) => {
    const { operator, key, credits, statusReason } = operation.data as CleanUpData;
    for (const credit of credits) {
      const entry = await entryById(credit.entry);
      if (entry) await takeBack(entry, statusReason, operator, { cleanUp: key });
    }
  },
};

const done: Step = {
  name: 'done',
  run: async (operation) => {
    const { key } = operation.data as CleanUpData;
    await ClusterCleanUpModel.updateOne({ key, status: 'running' }, { $set: { status: 'done', doneAt: new Date() } });
  },
};

const clusterCleanUpKind: OperationKind = { kind: CLUSTER_CLEANUP, steps: [plan, audit, bans, takes, done] };

/** Records the clean-up of this plan (once per plan, however many operators confirm it at once) and carries it out. */
export function carryOutCleanUp(cleanUp: CleanUpPlan, operator: Operator) {
  return runOperation({
    kind: CLUSTER_CLEANUP,
    key: `${CLUSTER_CLEANUP}:${cleanUp.key}`,
    refType: 'ClusterCleanUp',
    refId: cleanUp.key,
    players: [],
    house: [],
    note: cleanUp.statusReason,
    createdBy: operator.id,
    data: { ...cleanUp, operator } satisfies CleanUpData,
  });
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const clusterCleanUpKinds: readonly OperationKind[] = [clusterCleanUpKind];
