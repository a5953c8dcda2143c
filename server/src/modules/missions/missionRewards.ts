import { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { accountUsername } from '../accounts/accounts.service';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { aboveThreshold } from '../coins/coinBrakes.service';
import { MissionModel } from './mission.models';

/** What a mission pays and whether it is live, as stored (the reward in micro-units), with what a second operator approved. */
export interface RewardState {
  reward: number;
  coin: Id;
  enabled: boolean;
  approvedReward?: number | null;
  approvedCoin?: Id | null;
}

/**
 * Whether a mission going live at this reward needs a second operator: the reward is above its coin's threshold (not
 * "never") and is not the reward and coin a second operator already approved for this mission.
 */
export async function needsSecondOperator(reward: number, coin: Id, approved?: Pick<RewardState, 'approvedReward' | 'approvedCoin'>) {
  if (approved?.approvedReward === reward && approved.approvedCoin && String(approved.approvedCoin) === String(coin)) return false;
  return aboveThreshold(coin, BigInt(reward));
}

/** A reward change waiting for a second operator, asked by this operator now. */
export function waitingReward(reward: number, coin: Id, operator: Operator, now: Date) {
  return {
    id: new Types.ObjectId().toHexString(),
    reward,
    coin: objectId(coin),
    requestedBy: objectId(operator.id),
    requestedAt: now,
  };
}

/**
 * What an edit stores, given what it asks (`wanted`) and what is live (`live`, null for a new mission): a mission that would go
 * live at a reward needing a second operator (created enabled, enabled, or its live reward or coin changed) keeps its live
 * reward, coin and state (a new one is saved disabled) and the change waits; an edit that asks nothing new of the reward keeps
 * whatever waits; any other edit applies and drops what waited (a disabled mission is not live: enabling it is the change).
 */
export async function rewardFields(
  wanted: Pick<RewardState, 'reward' | 'coin' | 'enabled'>,
  live: RewardState | null,
  operator: Operator,
  now: Date,
): Promise<Record<string, unknown>> {
  const sameReward = !!live && live.reward === wanted.reward && String(live.coin) === String(wanted.coin);
  if (live && sameReward && live.enabled === wanted.enabled) return {};
  const goesLive = wanted.enabled && (!live?.enabled || !sameReward);
  if (!goesLive || !(await needsSecondOperator(wanted.reward, wanted.coin, live ?? undefined))) return { waiting: null };
  const waiting = waitingReward(wanted.reward, wanted.coin, operator, now);
  return live
    ? { reward: live.reward, coin: objectId(live.coin), enabled: live.enabled, waiting }
    : { reward: wanted.reward, coin: objectId(wanted.coin), enabled: false, waiting };
}

/** 409: the change was decided (or replaced by a later edit) before this decision. */
function alreadyDecided(status: string): AppError {
  return new AppError('CHANGE_DECIDED', { status });
}

const auditKey = (decisionId: string) => `mission-reward:${decisionId}`;

/** The audit of a decision, keyed by the change: written once, and by a repeat or the sweep when a crash came before it. */
function auditDecision(
  operator: Operator,
  mission: { _id: unknown },
  decision: { id: string; status: string; reward: number; coin: unknown },
) {
  return recordAudit({
    operator,
    action: 'review',
    resource: 'missions',
    record: String(mission._id),
    before: { waiting: decision.id },
    after: {
      [decision.status === 'approved' ? 'approvedReward' : 'rejectedReward']: fromMicros(decision.reward),
      coin: String(decision.coin),
    },
    note: `${decision.status === 'approved' ? 'Approved' : 'Rejected'} reward change ${decision.id}`,
    key: auditKey(decision.id),
  });
}

/**
 * A second, independent operator approves the reward change `waitingId` of a mission: in one conditional update the mission
 * takes the reward and coin and goes live, and the change is gone, so two approvals at once apply it once. A repeat by the
 * approver of an approval a crash interrupted writes what it had not (the audit) and nothing twice.
 */
export async function approveMissionReward(missionId: string, waitingId: string, operator: Operator, now: Date) {
  const mission = await MissionModel.findById(objectId(missionId));
  if (!mission) throw new AppError('NOT_FOUND');
  const waiting = mission.waiting;
  if (!waiting || waiting.id !== waitingId) {
    const last = mission.lastDecision;
    if (last?.id === waitingId && last.status === 'approved' && String(last.decidedBy) === operator.id) {
      await auditDecision(operator, mission, { id: waitingId, status: 'approved', reward: mission.reward, coin: mission.coin });
      return mission;
    }
    throw alreadyDecided(last?.id === waitingId ? last.status : 'replaced by a later edit');
  }
  await assertIndependentApprover(String(waiting.requestedBy), operator.id, 'this mission reward');
  const approved = await MissionModel.findOneAndUpdate(
    { _id: mission._id, 'waiting.id': waitingId },
    {
      $set: {
        reward: waiting.reward,
        coin: waiting.coin,
        enabled: true,
        approvedReward: waiting.reward,
        approvedCoin: waiting.coin,
        waiting: null,
        lastDecision: {
          id: waitingId,
          status: 'approved',
          reward: waiting.reward,
          coin: waiting.coin,
          requestedBy: waiting.requestedBy,
          decidedBy: objectId(operator.id),
          decidedAt: now,
        },
      },
    },
    { returnDocument: 'after' },
  );
  if (!approved) return approveMissionReward(missionId, waitingId, operator, now);
  await faultPoint('reward:after-apply');
  await auditDecision(operator, approved, { id: waitingId, status: 'approved', reward: waiting.reward, coin: waiting.coin });
  return approved;
}

/** Turns down a waiting reward change, with the reason (the operator who asked may withdraw their own): the mission stays as it is. */
export async function rejectMissionReward(missionId: string, waitingId: string, reason: string, operator: Operator, now: Date) {
  const mission = await MissionModel.findById(objectId(missionId));
  if (!mission) throw new AppError('NOT_FOUND');
  const waiting = mission.waiting;
  if (!waiting || waiting.id !== waitingId)
    throw alreadyDecided(mission.lastDecision?.id === waitingId ? mission.lastDecision.status : 'replaced by a later edit');
  const rejected = await MissionModel.findOneAndUpdate(
    { _id: mission._id, 'waiting.id': waitingId },
    {
      $set: {
        waiting: null,
        lastDecision: {
          id: waitingId,
          status: 'rejected',
          reward: waiting.reward,
          coin: waiting.coin,
          requestedBy: waiting.requestedBy,
          decidedBy: objectId(operator.id),
          decidedAt: now,
          reason,
        },
      },
    },
    { returnDocument: 'after' },
  );
  if (!rejected) return rejectMissionReward(missionId, waitingId, reason, operator, now);
  await auditDecision(operator, rejected, { id: waitingId, status: 'rejected', reward: waiting.reward, coin: waiting.coin });
  return rejected;
}

/**
 * Audits, as their decider, the decisions on reward changes a crash left unaudited (decided over `olderThanMs` ago, within a
 * day): an approval killed after the mission went live is recorded once, with or without the approver's repeat. Returns how many.
 */
export async function recoverRewardAudits(olderThanMs = 30_000, now = new Date()): Promise<number> {
  const decided = await MissionModel.find(
    {
      'lastDecision.decidedAt': { $lte: new Date(now.getTime() - olderThanMs), $gte: new Date(now.getTime() - 24 * 3_600_000) },
    },
    { reward: 1, coin: 1, lastDecision: 1 },
  )
    .limit(100)
    .lean();
  let finished = 0;
  for (const mission of decided) {
    const decision = mission.lastDecision!;
    if (await isAudited(auditKey(decision.id))) continue;
    const decider = String(decision.decidedBy);
    await auditDecision({ id: decider, username: (await accountUsername(decider)) ?? decider }, mission, {
      id: decision.id,
      status: decision.status,
      // decisions stored before they carried the reward: an approval's is the mission's (it went live with it)
      reward: decision.reward ?? mission.reward,
      coin: decision.coin ?? mission.coin,
    });
    finished++;
  }
  return finished;
}
