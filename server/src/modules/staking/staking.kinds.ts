import { fromMicros } from '@gift/shared';
import type { Types } from 'mongoose';
import type { StakingDuration } from '@gift/shared';
import { findCoin } from '../coins/giftCoins.service';
import { entryKeys, runOperation, type OperationKind } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { StakeModel } from './staking.models';

/**
 * Staking's two money operations, as kinds of the engine (ledger/engine.ts). Neither keeps an owed flag of its own: the
 * operation is recorded first, with what its step needs, and the engine finishes it (postings, then the step, once each)
 * whoever runs it: the call, a retry, or the money recovery's sweep.
 * - `stake-open`: the amount leaves the player's balance into `stakes:held`; its step writes the stake, open, and schedules
 *   the unlock reminder. A balance that does not cover it refuses the operation and nothing is left, no stake record either.
 * - `stake-claim`: principal (from `stakes:held`) plus profit (created by `staking:profit`) to the player; its step marks
 *   the stake claimed. One per stake (its key), so simultaneous claims pay once.
 * Registered at the composition root (server/src/moneyKinds.ts).
 */

/** A stake as its record holds it: what `stake-open` records and its step writes. */
export interface StakeTermsRecord {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  stakingCoin: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  duration: StakingDuration;
  profitPercent: string;
  profit: number;
  startedAt: Date;
  unlocksAt: Date;
  idempotencyKey: string;
}

const STAKE_OPEN = 'stake-open';
const STAKE_CLAIM = 'stake-claim';

const stakeOpenKind: OperationKind = {
  kind: STAKE_OPEN,
  steps: [
    {
      // the stake's record, written once from the operation's terms (an upsert on its id: a second run finds it)
      name: 'open',
      run: async (operation) => {
        const { _id, ...terms } = (operation.data as { stake: StakeTermsRecord }).stake;
        await StakeModel.updateOne({ _id }, { $setOnInsert: { ...terms, claimedAt: null } }, { upsert: true });
      },
    },
    {
      // the reminder when it unlocks, queued once per stake
      name: 'remind',
      run: async (operation) => {
        const stake = (operation.data as { stake: StakeTermsRecord }).stake;
        const coin = await findCoin(stake.coin, { symbol: 1 });
        await notify(
          stake.user,
          `stake-unlocked:${String(stake._id)}`,
          'stake-unlocked',
          {
            amount: fromMicros(stake.amount),
            symbol: coin?.symbol ?? '',
            total: fromMicros(BigInt(stake.amount) + BigInt(stake.profit)),
            stakeId: String(stake._id),
          },
          stake.unlocksAt,
        );
      },
    },
  ],
};

const stakeClaimKind: OperationKind = {
  kind: STAKE_CLAIM,
  steps: [
    {
      name: 'claimed',
      run: async (operation) => {
        const { stakeId, claimedAt } = operation.data as { stakeId: Types.ObjectId; claimedAt: Date };
        await StakeModel.updateOne({ _id: stakeId, claimedAt: null }, { $set: { claimedAt } });
      },
    },
  ],
};

/** Takes the stake's amount from the player and opens it (once per the player's key); throws INSUFFICIENT_BALANCE. */
export function openStake(stake: StakeTermsRecord) {
  return runOperation({
    kind: STAKE_OPEN,
    key: entryKeys.stakeLock(stake.idempotencyKey),
    refType: 'Stake',
    refId: String(stake._id),
    players: [{ user: stake.user, coin: stake.coin, amount: -BigInt(stake.amount), reason: 'stake' }],
    house: [{ account: 'stakes:held', coin: stake.coin, amount: BigInt(stake.amount) }],
    data: { stake },
    // the player's own doing: refused once they are frozen or banned
    guarded: true,
  });
}

/** Pays a stake's principal and profit back and marks it claimed, once per stake; `applied` is false for every later call. */
export function claimStakeOnce(stake: Pick<StakeTermsRecord, '_id' | 'user' | 'coin' | 'amount' | 'profit'>, claimedAt: Date) {
  return runOperation({
    kind: STAKE_CLAIM,
    key: entryKeys.stakeReturn(stake._id),
    refType: 'Stake',
    refId: String(stake._id),
    players: [{ user: stake.user, coin: stake.coin, amount: BigInt(stake.amount) + BigInt(stake.profit), reason: 'unstake' }],
    // the principal comes back out of the stakes held, the profit is created by staking
    house: [
      { account: 'stakes:held', coin: stake.coin, amount: -BigInt(stake.amount) },
      { account: 'staking:profit', coin: stake.coin, amount: -BigInt(stake.profit) },
    ],
    data: { stakeId: stake._id, claimedAt },
  });
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const stakingKinds: readonly OperationKind[] = [stakeOpenKind, stakeClaimKind];
