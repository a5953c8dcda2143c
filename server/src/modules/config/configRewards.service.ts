import { Types } from 'mongoose';
import { fromMicros, toMicros } from '@gift/shared';
import { isId, objectId } from '../../db/ids';
import { decideChange, type DecisionTarget } from '../accounts/changeDecisions.service';
import type { DecisionsKept, StoredDecision } from '../accounts/decisionAudits.service';
import { recordAudit, type Operator } from '../audit/audit.service';
import { aboveThreshold } from '../coins/coinBrakes.service';
import { AppConfigModel } from './appConfig.model';

/** The rewards App Config pays by itself, each braked like a gift: the referral reward, the streak milestones and mining. */
export const CONFIG_REWARDS = ['referral', 'streakMilestones', 'mining'] as const;
export type ConfigReward = (typeof CONFIG_REWARDS)[number];

interface Milestone {
  days: number;
  coin: unknown;
  /** Micro-units. */
  amount: number;
}

interface LiveRewards {
  referrerCoin?: unknown;
  referrerCoinAmount?: number;
  streakMilestones?: Milestone[];
  referralQualification?: { premiumRewardPercent?: number | null };
  miningCoin?: unknown;
  earnAmount?: number;
  earnDurationHours?: number;
}

/** The most one referral pays: a Premium friend's share (a percent, at least 100) of the amount. */
const topReferral = (amount: number, premiumPercent: number) => (BigInt(amount) * BigInt(Math.max(100, premiumPercent))) / 100n;

/** What mining pays one player in a day at most: a session's amount for each session a day holds (one when a session is longer). */
const miningDay = (amount: number, hours: number) => BigInt(amount) * BigInt(Math.max(1, Math.ceil(24 / hours)));

/** A reference as text ('' for none), whether an ObjectId or the id typed. */
const idText = (ref: unknown): string => (isId(ref) ? String(ref) : '');

const sameMilestone = (a: Milestone, b: Milestone) => a.days === b.days && idText(a.coin) === idText(b.coin) && a.amount === b.amount;

const asked = (operator: Operator, now: Date) => ({
  id: new Types.ObjectId().toHexString(),
  requestedBy: objectId(operator.id),
  requestedAt: now,
});

/**
 * Splits an App Config save's `changes` (named fields, referral amount as the decimal typed, milestones in micro-units): a
 * referral reward or a milestone new or changed above its coin's threshold is taken out and waits for a second operator,
 * whose approval puts it live; the rest of the save applies. A save that changes a reward without going above the threshold
 * drops what waited for that reward; one that leaves a reward as it is keeps what waits. Returns the `$set` for the waits.
 */
export async function holdRewardChanges(
  changes: Record<string, unknown>,
  live: LiveRewards,
  operator: Operator,
  now: Date,
): Promise<Record<string, unknown>> {
  const held: Record<string, unknown> = {};
  const qualification = changes.referralQualification as { premiumRewardPercent?: number } | undefined;
  const livePremium = live.referralQualification?.premiumRewardPercent ?? 100;
  const premiumNamed = qualification?.premiumRewardPercent !== undefined;
  if ('referrerCoin' in changes || 'referrerCoinAmount' in changes || premiumNamed) {
    const coin = 'referrerCoin' in changes ? changes.referrerCoin : live.referrerCoin;
    const typed = changes.referrerCoinAmount;
    const amount = 'referrerCoinAmount' in changes ? toStoredAmount(typed) : (live.referrerCoinAmount ?? 0);
    const premium = premiumNamed ? qualification.premiumRewardPercent! : livePremium;
    const same = idText(coin) === idText(live.referrerCoin) && amount === (live.referrerCoinAmount ?? 0) && premium === livePremium;
    if (!same) {
      // a Premium friend is paid a percent of the amount: the most one referral pays is what the threshold reads
      if (coin && amount !== null && (await aboveThreshold(idText(coin), topReferral(amount, premium)))) {
        delete changes.referrerCoin;
        delete changes.referrerCoinAmount;
        if (premiumNamed) qualification.premiumRewardPercent = livePremium;
        held['waitingRewards.referral'] = {
          ...asked(operator, now),
          coin: objectId(idText(coin)),
          amount,
          premiumRewardPercent: premium,
        };
      } else held['waitingRewards.referral'] = null;
    }
  }
  if ('streakMilestones' in changes) {
    const wanted = changes.streakMilestones as Milestone[];
    const current = live.streakMilestones ?? [];
    const same = wanted.length === current.length && wanted.every((m, i) => sameMilestone(m, current[i]!));
    if (!same) {
      let needs = false;
      for (const milestone of wanted)
        if (!current.some((m) => sameMilestone(m, milestone)) && (await aboveThreshold(String(milestone.coin), BigInt(milestone.amount))))
          needs = true;
      if (needs) {
        delete changes.streakMilestones;
        held['waitingRewards.streakMilestones'] = {
          ...asked(operator, now),
          milestones: wanted.map((m) => ({ days: m.days, coin: objectId(String(m.coin)), amount: m.amount })),
        };
      } else held['waitingRewards.streakMilestones'] = null;
    }
  }
  if ('miningCoin' in changes || 'earnAmount' in changes || 'earnDurationHours' in changes) {
    const coin = 'miningCoin' in changes ? changes.miningCoin : live.miningCoin;
    const amount = 'earnAmount' in changes ? toStoredAmount(changes.earnAmount) : (live.earnAmount ?? 0);
    const hours = 'earnDurationHours' in changes ? Number(changes.earnDurationHours) : (live.earnDurationHours ?? 8);
    const liveAmount = live.earnAmount ?? 0;
    const liveHours = live.earnDurationHours ?? 8;
    const same = idText(coin) === idText(live.miningCoin) && amount === liveAmount && hours === liveHours;
    if (!same) {
      // paying more per hour (a higher amount, a shorter session) or in another coin raises it; paying less applies at once
      const raises =
        idText(coin) !== idText(live.miningCoin) || BigInt(amount ?? 0) * BigInt(liveHours) > BigInt(liveAmount) * BigInt(hours);
      if (coin && amount !== null && raises && (await aboveThreshold(idText(coin), miningDay(amount, hours)))) {
        delete changes.miningCoin;
        delete changes.earnAmount;
        delete changes.earnDurationHours;
        held['waitingRewards.mining'] = { ...asked(operator, now), coin: objectId(idText(coin)), amount, hours };
      } else held['waitingRewards.mining'] = null;
    }
  }
  return held;
}

/** The typed decimal as micro-units; null when it is not an amount (the field check refuses it). */
function toStoredAmount(typed: unknown): number | null {
  if (typeof typed === 'number') return typed;
  try {
    return typeof typed === 'string' ? Number(toMicros(typed)) : null;
  } catch {
    return null;
  }
}

/** The live fields an approved change sets. */
function liveFields(kind: ConfigReward, waiting: Omit<Waiting, 'id' | 'requestedBy'>) {
  if (kind === 'referral')
    return {
      referrerCoin: waiting.coin,
      referrerCoinAmount: waiting.amount,
      ...(waiting.premiumRewardPercent ? { 'referralQualification.premiumRewardPercent': waiting.premiumRewardPercent } : {}),
    };
  if (kind === 'mining') return { miningCoin: waiting.coin, earnAmount: waiting.amount, earnDurationHours: waiting.hours };
  return { streakMilestones: (waiting.milestones ?? []).map((m) => ({ days: m.days, coin: m.coin, amount: m.amount })) };
}

/** What the audit and the console read of a waiting change: amounts as decimals. */
export function presentWaiting(waiting: Record<string, unknown> | null | undefined) {
  if (!waiting) return null;
  const { amount, milestones, coin, requestedBy, ...rest } = waiting as {
    amount?: number;
    milestones?: Milestone[];
    coin?: unknown;
    requestedBy?: unknown;
  };
  return {
    ...rest,
    requestedBy: String(requestedBy),
    ...(coin !== undefined ? { coin: idText(coin) } : {}),
    ...(amount !== undefined ? { amount: fromMicros(BigInt(amount)) } : {}),
    ...(milestones
      ? { milestones: milestones.map((m) => ({ days: m.days, coin: String(m.coin), amount: fromMicros(BigInt(m.amount)) })) }
      : {}),
  };
}

type Waiting = {
  id: string;
  requestedBy: unknown;
  coin?: unknown;
  amount?: number;
  milestones?: Milestone[];
  premiumRewardPercent?: number;
  hours?: number;
};
type Decision = { id: string; status: string; decidedBy?: unknown };

async function current(kind: ConfigReward) {
  const config = await AppConfigModel.findOne({ key: 'app' }, { waitingRewards: 1, rewardDecisions: 1 }).lean<{
    waitingRewards?: Partial<Record<ConfigReward, Waiting | null>>;
    rewardDecisions?: Partial<Record<ConfigReward, Decision | null>>;
  }>();
  return { waiting: config?.waitingRewards?.[kind] ?? null, last: config?.rewardDecisions?.[kind] ?? null };
}

const REWARD_NAMES: Record<ConfigReward, string> = { referral: 'referral reward', streakMilestones: 'streak milestones', mining: 'mining' };

const configAuditKey = (changeId: string) => `config-reward:${changeId}`;

function auditDecision(operator: Operator, kind: ConfigReward, status: string, waiting: Waiting) {
  return recordAudit({
    operator,
    action: 'review',
    resource: 'app-config',
    record: 'current',
    before: { waiting: waiting.id },
    after: { [kind]: presentWaiting(waiting), status },
    note: `${status === 'approved' ? 'Approved' : 'Rejected'} ${REWARD_NAMES[kind]} change ${waiting.id}`,
    key: configAuditKey(waiting.id),
  });
}

/**
 * App Config's rewards as where changes wait for a decision of the money engine (accounts/changeDecision.kinds.ts), the record
 * being which reward: the decision's one conditional update puts an approved reward live and clears it, so two approvals
 * apply it once; its audit is the operation's step, written once by the approver's repeat or the engine's sweep after a crash.
 */
export const configRewardDecisions: DecisionTarget = {
  name: 'app-config',
  what: 'this reward change',
  replaced: 'replaced by a later save',
  state: async ({ record }) => {
    const { waiting, last } = await current(record as ConfigReward);
    return { waiting, last };
  },
  decide: async ({ record, changeId, status, reason, operator, at, change }) => {
    const kind = record as ConfigReward;
    const waiting = change as unknown as Waiting;
    const decision = { ...waiting, status, decidedBy: objectId(operator.id), decidedAt: at, ...(status === 'rejected' ? { reason } : {}) };
    const decided = await AppConfigModel.updateOne(
      { key: 'app', [`waitingRewards.${kind}.id`]: changeId },
      {
        $set: {
          ...(status === 'approved' ? liveFields(kind, waiting) : {}),
          [`waitingRewards.${kind}`]: null,
          [`rewardDecisions.${kind}`]: decision,
        },
      },
    );
    return decided.modifiedCount === 1;
  },
  audit: ({ record, status, operator, change }) => auditDecision(operator, record as ConfigReward, status, change as unknown as Waiting),
};

/** App Config's last reward decisions, where an older version kept them too (its audits written once at start-up). */
export const configRewardsDecided: DecisionsKept = {
  target: configRewardDecisions,
  lastDecisions: async (before) => {
    const config = await AppConfigModel.findOne({ key: 'app' }, { rewardDecisions: 1 }).lean<{
      rewardDecisions?: Partial<Record<ConfigReward, StoredDecision | null>>;
    }>();
    return CONFIG_REWARDS.flatMap((kind) => {
      const decision = config?.rewardDecisions?.[kind];
      return decision?.decidedAt && decision.decidedAt <= before ? [{ record: kind, decision }] : [];
    });
  },
};

/** A second, independent operator approves a waiting App Config reward (`id`: the change they saw). */
export function approveConfigReward(kind: ConfigReward, id: string, operator: Operator, now: Date): Promise<void> {
  return decideChange(configRewardDecisions, { record: kind, changeId: id, status: 'approved', reason: '', operator, at: now });
}

/** Turns down a waiting App Config reward with the reason: the live one stays. */
export function rejectConfigReward(kind: ConfigReward, id: string, reason: string, operator: Operator, now: Date): Promise<void> {
  return decideChange(configRewardDecisions, { record: kind, changeId: id, status: 'rejected', reason, operator, at: now });
}
