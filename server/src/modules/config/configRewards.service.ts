import { Types } from 'mongoose';
import { fromMicros, toMicros } from '@gift/shared';
import { isId, objectId } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { accountUsername } from '../accounts/accounts.service';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
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

function alreadyDecided(status: string): AppError {
  return new AppError('CHANGE_DECIDED', { status });
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
 * A second, independent operator approves a waiting App Config reward (`id`: the change they saw): one conditional update
 * puts it live and clears it, so two approvals apply it once; a repeat by the approver after a crash writes the audit once.
 */
export async function approveConfigReward(kind: ConfigReward, id: string, operator: Operator, now: Date): Promise<void> {
  const { waiting, last } = await current(kind);
  if (!waiting || waiting.id !== id) {
    if (last?.id === id && last.status === 'approved' && String(last.decidedBy) === operator.id)
      return auditDecision(operator, kind, 'approved', last as unknown as Waiting);
    throw alreadyDecided(last?.id === id ? last.status : 'replaced by a later save');
  }
  await assertIndependentApprover(String(waiting.requestedBy), operator.id, 'this reward change');
  const applied = await AppConfigModel.updateOne(
    { key: 'app', [`waitingRewards.${kind}.id`]: id },
    {
      $set: {
        ...liveFields(kind, waiting),
        [`waitingRewards.${kind}`]: null,
        [`rewardDecisions.${kind}`]: { ...waiting, status: 'approved', decidedBy: objectId(operator.id), decidedAt: now },
      },
    },
  );
  if (applied.modifiedCount !== 1) return approveConfigReward(kind, id, operator, now);
  await faultPoint('reward:after-apply');
  await auditDecision(operator, kind, 'approved', waiting);
}

/** Turns down a waiting App Config reward with the reason: the live one stays. */
export async function rejectConfigReward(kind: ConfigReward, id: string, reason: string, operator: Operator, now: Date): Promise<void> {
  const { waiting, last } = await current(kind);
  if (!waiting || waiting.id !== id) throw alreadyDecided(last?.id === id ? last.status : 'replaced by a later save');
  const rejected = await AppConfigModel.updateOne(
    { key: 'app', [`waitingRewards.${kind}.id`]: id },
    {
      $set: {
        [`waitingRewards.${kind}`]: null,
        [`rewardDecisions.${kind}`]: { ...waiting, status: 'rejected', decidedBy: objectId(operator.id), decidedAt: now, reason },
      },
    },
  );
  if (rejected.modifiedCount !== 1) return rejectConfigReward(kind, id, reason, operator, now);
  await auditDecision(operator, kind, 'rejected', waiting);
}

/**
 * The sweep: an App Config reward decision a crash left unaudited (live, or turned down, the audit not yet written) older than
 * `olderThanMs` and under a day old is audited once, in the name of the operator who decided, as their repeat would have.
 */
export async function recoverConfigRewardAudits(olderThanMs = 30_000, now = new Date()): Promise<number> {
  const config = await AppConfigModel.findOne({ key: 'app' }, { rewardDecisions: 1 }).lean<{
    rewardDecisions?: Partial<Record<ConfigReward, (Waiting & Decision & { decidedAt?: Date }) | null>>;
  }>();
  let finished = 0;
  for (const kind of CONFIG_REWARDS) {
    const decision = config?.rewardDecisions?.[kind];
    const at = decision?.decidedAt?.getTime() ?? 0;
    if (!decision || at > now.getTime() - olderThanMs || at < now.getTime() - 24 * 3_600_000) continue;
    if (await isAudited(configAuditKey(decision.id))) continue;
    const decider = String(decision.decidedBy);
    await auditDecision({ id: decider, username: (await accountUsername(decider)) ?? decider }, kind, decision.status, decision);
    finished++;
  }
  return finished;
}
