import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError, isHold } from '../../lib/errors';
import { entryKeys, registerOperationKind, runOperation } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { playerNames, referralStateOf, settleReferral } from '../users/players.service';

/**
 * A referrer's reward for one friend, as a kind of the money engine (ledger/engine.ts): `referral-reward`, one per friend
 * (keyed `referral:<friendId>`, as the credit was before the engine). The operation is recorded first; its admit check
 * settles the friend's referral as rewarded, from the state its caller read (pending at the join, joined once qualified,
 * waiting once risk lets it go), so however many callers reward one friend at once one operation stands; the engine then
 * credits the referrer from `rewards:referral`, and its step tells the referrer. The referral keeps no state of money owed:
 * once admitted the operation stands, a crash anywhere is finished by a retry or the engine's sweep, and a frozen or banned
 * referrer's reward stays owed as the operation, paid once they are active.
 * Registered when this file loads, which every process that records or finishes one does (the referrals service imports it).
 */

const REFERRAL_REWARD = 'referral-reward';

type Event = 'friend-joined' | 'friend-qualified';

interface RewardData {
  friendId: Types.ObjectId;
  referrerId: Types.ObjectId;
  /** The state the caller read: the referral is rewarded from it. */
  from: 'pending' | 'joined' | 'waiting';
  /** When the friend met the rule (the referral figures date it). */
  at: Date;
  event: Event;
  reward: { amount: string; symbol: string };
}

registerOperationKind({
  kind: REFERRAL_REWARD,
  admit: async (operation) => {
    const { friendId, from, at } = operation.data as RewardData;
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
});

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

/**
 * Rewards the referrer for this friend, once however often it is called: `rewarded` for the call that recorded the reward
 * (the referral is rewarded from `from`), `credited` for the one that applied it. A frozen or banned referrer's reward is
 * admitted and stays owed (`held`). Neither, when the referral was settled otherwise meanwhile.
 */
export async function payReferralReward(
  reward: Omit<RewardData, 'reward'> & { coin: Types.ObjectId; amount: bigint; symbol: string },
): Promise<{ rewarded: boolean; credited: boolean; held?: true }> {
  const { friendId, referrerId, from, at, event, coin, amount, symbol } = reward;
  try {
    const { recorded, applied } = await runOperation({
      kind: REFERRAL_REWARD,
      key: entryKeys.referralReward(friendId),
      refType: 'User',
      refId: String(friendId),
      players: [{ user: referrerId, coin, amount, reason: 'referral' }],
      house: [{ account: 'rewards:referral', coin, amount: -amount }],
      data: { friendId, referrerId, from, at, event, reward: { amount: fromMicros(amount), symbol } } satisfies RewardData,
      // the referrer's hold keeps it owed
      guarded: true,
    });
    // an older version's credit under this key (of the reason's kind, which settles nothing) leaves the referral to settle here
    if (!recorded) await settleReferral(friendId, 'rewarded', from, at);
    return { rewarded: recorded, credited: applied };
  } catch (error) {
    if (isHold(error)) return { rewarded: false, credited: false, held: true };
    if (error instanceof AppError && error.code === 'NOT_FOUND') return { rewarded: false, credited: false };
    throw error;
  }
}
