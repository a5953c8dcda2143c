import { Types } from 'mongoose';
import { fromMicros, toMicros } from '@gift/shared';
import { isId, objectId } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { recordAudit, type Operator } from '../audit/audit.service';
import { aboveThreshold } from '../coins/coinBrakes.service';
import { AppConfigModel } from './appConfig.model';

/** The rewards App Config pays by itself, each braked like a gift: the referral reward and the streak milestones. */
export const CONFIG_REWARDS = ['referral', 'streakMilestones'] as const;
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
}

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
  if ('referrerCoin' in changes || 'referrerCoinAmount' in changes) {
    const coin = 'referrerCoin' in changes ? changes.referrerCoin : live.referrerCoin;
    const typed = changes.referrerCoinAmount;
    const amount = 'referrerCoinAmount' in changes ? toStoredAmount(typed) : (live.referrerCoinAmount ?? 0);
    const same = idText(coin) === idText(live.referrerCoin) && amount === (live.referrerCoinAmount ?? 0);
    if (!same) {
      if (coin && amount !== null && (await aboveThreshold(idText(coin), BigInt(amount)))) {
        delete changes.referrerCoin;
        delete changes.referrerCoinAmount;
        held['waitingRewards.referral'] = { ...asked(operator, now), coin: objectId(idText(coin)), amount };
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
function liveFields(kind: ConfigReward, waiting: { coin?: unknown; amount?: number; milestones?: Milestone[] }) {
  return kind === 'referral'
    ? { referrerCoin: waiting.coin, referrerCoinAmount: waiting.amount }
    : { streakMilestones: (waiting.milestones ?? []).map((m) => ({ days: m.days, coin: m.coin, amount: m.amount })) };
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
  const error = new AppError('GIFT_DECIDED', { status });
  error.message = `This reward change was already ${status}: reload App Config`;
  return error;
}

type Waiting = { id: string; requestedBy: unknown; coin?: unknown; amount?: number; milestones?: Milestone[] };
type Decision = { id: string; status: string; decidedBy?: unknown };

async function current(kind: ConfigReward) {
  const config = await AppConfigModel.findOne({ key: 'app' }, { waitingRewards: 1, rewardDecisions: 1 }).lean<{
    waitingRewards?: Partial<Record<ConfigReward, Waiting | null>>;
    rewardDecisions?: Partial<Record<ConfigReward, Decision | null>>;
  }>();
  return { waiting: config?.waitingRewards?.[kind] ?? null, last: config?.rewardDecisions?.[kind] ?? null };
}

function auditDecision(operator: Operator, kind: ConfigReward, status: string, waiting: Waiting) {
  return recordAudit({
    operator,
    action: 'review',
    resource: 'app-config',
    record: 'current',
    before: { waiting: waiting.id },
    after: { [kind]: presentWaiting(waiting), status },
    note: `${status === 'approved' ? 'Approved' : 'Rejected'} ${kind === 'referral' ? 'referral reward' : 'streak milestones'} change ${waiting.id}`,
    key: `config-reward:${waiting.id}`,
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
