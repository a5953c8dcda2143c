import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError, isHold } from '../../lib/errors';
import { entryKeys, recordOperation, runOperation, type OperationKind } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { playerNames, referralStateOf, settleReferral } from '../users/players.service';

/**
 * A referrer's reward for one friend, as a kind of the money engine (ledger/engine.ts): `referral-reward`, one per friend
 * (keyed `referral:<friendId>`, as the credit was before the engine). The operation is recorded first: at a registration
 * with a code, before the friend is written (under the id the friend is then written with), so the referral keeps no state
 * saying it is still to be done. Its admit check decides a join (the invite counted once, within the referrer's limit; the
 * friend left to qualify or to wait on risk, which refuses the operation and moves nothing) and settles the referral as
 * rewarded from the state its caller read (new at the join, joined once qualified, waiting once risk lets it go), so however
 * many callers reward one friend at once one operation stands; the engine then
 * credits the referrer from `rewards:referral`, and its step tells the referrer. The referral keeps no state of money owed:
 * once admitted the operation stands, a crash anywhere is finished by a retry or the engine's sweep, and a frozen or banned
 * referrer's reward stays owed as the operation, paid once they are active.
 * Registered at the composition root (server/src/moneyKinds.ts).
 */

const REFERRAL_REWARD = 'referral-reward';

type Event = 'friend-joined' | 'friend-qualified';

interface RewardData {
  friendId: Types.ObjectId;
  referrerId: Types.ObjectId;
  /** The state the caller read: the referral is rewarded from it ('new': a join, decided by the admit check). */
  from: 'new' | 'joined' | 'waiting';
  /** When the friend met the rule (the referral figures date it). */
  at: Date;
  event: Event;
  /** What the referrer is told it earned them (none when App Config gives no reward). */
  reward?: { amount: string; symbol: string };
}

/**
 * How a join is decided (the referrals service's rules): null when the reward is owed now; otherwise the referral was settled
 * another way (beyond the limit, left to qualify, waiting on risk) or the friend was never written, and the refusal says so.
 */
type JoinDecision = (friendId: Types.ObjectId, referrerId: Types.ObjectId) => Promise<AppError | null>;
let decideJoin: JoinDecision = () => Promise.reject(new Error('the referrals service has not registered how a join is decided'));

/** Set by the referrals service, whose rules decide a join. */
export function registerJoinDecision(decide: JoinDecision): void {
  decideJoin = decide;
}

const referralRewardKind: OperationKind = {
  kind: REFERRAL_REWARD,
  admit: async (operation) => {
    const { friendId, referrerId, from, at } = operation.data as RewardData;
    if (from === 'new') {
      const refused = await decideJoin(friendId, referrerId);
      if (refused) return refused;
    }
    if ((await settleReferral(friendId, 'rewarded', from, at)) || (await referralStateOf(friendId)) === 'rewarded') return null;
    // settled otherwise meanwhile (or not there): nothing is owed
    return new AppError('NOT_FOUND');
  },
  steps: [
    {
      name: 'notify',
      run: async (operation) => {
        const { event, referrerId, friendId, reward } = operation.data as RewardData;
        await notifyReferrer(event, referrerId, friendId, reward);
      },
    },
  ],
};

/** Tells the referrer that a friend joined with their link, or later qualified, and what it earned them (once per friend and event). */
export async function notifyReferrer(
  event: Event,
  referrerId: Types.ObjectId,
  friendId: Types.ObjectId,
  reward?: { amount: string; symbol: string },
) {
  const friend = await playerNames(friendId);
  const name = friend?.name || (friend?.username ? `@${friend.username}` : 'A friend');
  await notify(referrerId, `${event}:${friendId}`, event, { friend: name, ...reward });
}

type RewardInput = Omit<RewardData, 'reward'> & { coin: Types.ObjectId | null; amount: bigint; symbol: string };

/** The reward's operation: to the referrer from `rewards:referral`, or nothing but the referral settled when App Config gives no reward. */
function operationOf({ friendId, referrerId, from, at, event, coin, amount, symbol }: RewardInput) {
  const paid = coin && amount > 0n ? coin : null;
  return {
    kind: REFERRAL_REWARD,
    key: entryKeys.referralReward(friendId),
    refType: 'User',
    refId: String(friendId),
    players: paid ? [{ user: referrerId, coin: paid, amount, reason: 'referral' as const }] : [],
    house: paid ? [{ account: 'rewards:referral' as const, coin: paid, amount: -amount }] : [],
    data: { friendId, referrerId, from, at, event, ...(paid ? { reward: { amount: fromMicros(amount), symbol } } : {}) },
    // the referrer's hold keeps it owed
    guarded: true,
  };
}

/**
 * A registration with a code: the reward's operation recorded before the friend is written, under the friend's id to be.
 * Returns what finishes it once the friend is written (the engine's sweep does, should that never run): `held` when the
 * referrer's hold keeps the reward owed.
 */
export async function recordJoin(join: RewardInput): Promise<() => Promise<{ held?: true }>> {
  const finish = await recordOperation(operationOf(join));
  return async () => {
    try {
      await finish();
      return {};
    } catch (error) {
      if (isHold(error)) return { held: true };
      // decided another way (left to qualify, waiting on risk, beyond the limit): the operation is removed, nothing moved
      if (error instanceof AppError && error.code === 'NOT_FOUND') return {};
      throw error;
    }
  };
}

/**
 * Rewards the referrer for this friend, once however often it is called: `rewarded` for the call that recorded the reward
 * (the referral is rewarded from `from`), `credited` for the one that applied it. A frozen or banned referrer's reward is
 * admitted and stays owed (`held`). Neither, when the referral was settled otherwise meanwhile.
 */
export async function payReferralReward(reward: RewardInput): Promise<{ rewarded: boolean; credited: boolean; held?: true }> {
  try {
    const { recorded, applied } = await runOperation(operationOf(reward));
    // an older version's credit under this key (of the reason's kind, which settles nothing) leaves the referral to settle here
    if (!recorded && reward.from !== 'new') await settleReferral(reward.friendId, 'rewarded', reward.from, reward.at);
    return { rewarded: recorded, credited: applied };
  } catch (error) {
    if (isHold(error)) return { rewarded: false, credited: false, held: true };
    if (error instanceof AppError && error.code === 'NOT_FOUND') return { rewarded: false, credited: false };
    throw error;
  }
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const referralKinds: readonly OperationKind[] = [referralRewardKind];
