import { model, Schema } from 'mongoose';
import { STAKING_DURATION_KEYS } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';
import { changeDecisionSchema, waitingChangeSchema } from '../accounts/waitingChanges.service';

/** An offer to stake one coin: bounds and a profit percent per term (empty: not offered). */
const stakingCoinSchema = applyConventions(
  new Schema(
    {
      coin: ref('GiftCoin', { required: true }),
      enabled: { type: Boolean, default: true },
      minAmount: money({ required: true }),
      maxAmount: money({ required: true }),
      profits: {
        week: { type: String, default: '' },
        month: { type: String, default: '' },
        threeMonths: { type: String, default: '' },
        sixMonths: { type: String, default: '' },
        year: { type: String, default: '' },
      },
      order: { type: Number, default: 0 },
      /** Terms that let a stake earn more, waiting for a second operator (`accounts/waitingChanges.ts`); null: none. */
      waitingChange: { type: waitingChangeSchema, default: null },
      lastChangeDecision: { type: changeDecisionSchema, default: null },
    },
    schemaOptions,
  ),
);
stakingCoinSchema.index({ enabled: 1, order: 1 });
stakingCoinSchema.index({ coin: 1 });
export const StakingCoinModel = model('StakingCoin', stakingCoinSchema);

/**
 * A player's staked position: principal locked until unlocksAt, then principal + profit claimable once. Written by the
 * engine's `stake-open` operation once its amount has left the balance, and marked claimed by `stake-claim` once paid back
 * (staking.kinds.ts), so it carries no flag of money owed.
 */
const stakeSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      stakingCoin: ref('StakingCoin', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      amount: money({ required: true }),
      duration: { type: String, enum: STAKING_DURATION_KEYS, required: true },
      profitPercent: { type: String, required: true },
      profit: money({ required: true }),
      startedAt: { type: Date, required: true },
      unlocksAt: { type: Date, required: true },
      claimedAt: { type: Date, default: null },
      idempotencyKey: { type: String, required: true },
    },
    schemaOptions,
  ),
);
// a player's positions, and the console's list: newest first, each filter, each column it sorts by
stakeSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['user', 'coin', 'stakingCoin', 'duration']) stakeSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['startedAt', 'unlocksAt', 'claimedAt', 'amount']) stakeSchema.index({ [column]: 1, _id: 1 });
stakeSchema.index({ idempotencyKey: 1 }, { unique: true });
export const StakeModel = model('Stake', stakeSchema);
