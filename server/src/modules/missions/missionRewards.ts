import { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { decideChange, type DecisionTarget } from '../accounts/changeDecisions.service';
import type { DecisionsKept, StoredDecision } from '../accounts/decisionAudits.service';
import { recordAudit, type Operator } from '../audit/audit.service';
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

const auditKey = (decisionId: string) => `mission-reward:${decisionId}`;

/** A waiting reward change as stored (the reward in micro-units). */
interface WaitingReward {
  id: string;
  reward: number;
  coin: unknown;
  requestedBy: unknown;
}

/**
 * Missions as where reward changes wait for a decision of the money engine (accounts/changeDecision.kinds.ts): an approval's
 * one conditional update gives the mission the reward and coin, puts it live and clears the change, so two approvals at once
 * apply it once; its audit is the operation's step, written once by the approver's repeat or the engine's sweep.
 */
export const missionRewardDecisions: DecisionTarget = {
  name: 'missions',
  what: 'this mission reward',
  replaced: 'replaced by a later edit',
  state: async ({ record }) => {
    const mission = await MissionModel.findById(objectId(record), { waiting: 1, lastDecision: 1 }).lean();
    return mission ? { waiting: mission.waiting ?? null, last: mission.lastDecision ?? null } : null;
  },
  decide: async ({ record, changeId, status, reason, operator, at, change }) => {
    const waiting = change as unknown as WaitingReward;
    const decision = {
      id: changeId,
      status,
      reward: waiting.reward,
      coin: waiting.coin,
      requestedBy: waiting.requestedBy,
      decidedBy: objectId(operator.id),
      decidedAt: at,
      ...(status === 'rejected' ? { reason } : {}),
    };
    const live = { reward: waiting.reward, coin: waiting.coin, enabled: true, approvedReward: waiting.reward, approvedCoin: waiting.coin };
    const decided = await MissionModel.updateOne(
      { _id: objectId(record), 'waiting.id': changeId },
      { $set: { ...(status === 'approved' ? live : {}), waiting: null, lastDecision: decision } },
    );
    return decided.modifiedCount === 1;
  },
  audit: ({ record, changeId, status, operator, change }) => {
    const { reward, coin } = change as unknown as WaitingReward;
    return recordAudit({
      operator,
      action: 'review',
      resource: 'missions',
      record,
      before: { waiting: changeId },
      after: { [status === 'approved' ? 'approvedReward' : 'rejectedReward']: fromMicros(reward), coin: String(coin) },
      note: `${status === 'approved' ? 'Approved' : 'Rejected'} reward change ${changeId}`,
      key: auditKey(changeId),
    });
  },
};

/** The missions' last reward decisions, where an older version kept them too (its audits written once at start-up). */
export const missionRewardsDecided: DecisionsKept = {
  target: missionRewardDecisions,
  lastDecisions: async (before) =>
    (await MissionModel.find({ 'lastDecision.decidedAt': { $lte: before } }, { lastDecision: 1 }).lean()).map((mission) => ({
      record: String(mission._id),
      decision: mission.lastDecision as StoredDecision,
    })),
};

/** The mission after a decision, as the console reads it. */
async function decided(
  missionId: string,
  changeId: string,
  status: 'approved' | 'rejected',
  reason: string,
  operator: Operator,
  now: Date,
) {
  await decideChange(missionRewardDecisions, { record: missionId, changeId, status, reason, operator, at: now });
  return (await MissionModel.findById(objectId(missionId)))!;
}

/**
 * A second, independent operator approves the reward change `waitingId` of a mission: the mission takes the reward and coin and
 * goes live, once however many approve at once; a repeat by the approver after a crash writes what it had not (the audit).
 */
export function approveMissionReward(missionId: string, waitingId: string, operator: Operator, now: Date) {
  return decided(missionId, waitingId, 'approved', '', operator, now);
}

/** Turns down a waiting reward change, with the reason (the operator who asked may withdraw their own): the mission stays as it is. */
export function rejectMissionReward(missionId: string, waitingId: string, reason: string, operator: Operator, now: Date) {
  return decided(missionId, waitingId, 'rejected', reason, operator, now);
}
