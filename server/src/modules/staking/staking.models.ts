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

/** A player's staked position: principal locked until unlocksAt, then principal + profit claimable once. */
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
      /** 'opening' from the record until its amount left the balance, then 'open'; absent on older stakes (open). */
      state: { type: String, enum: ['opening', 'open'] },
      /** false from the claim until principal plus profit is credited, then true. */
      paidOut: { type: Boolean },
    },
    schemaOptions,
  ),
);
// a player's positions, and the console's list: newest first, each filter, each column it sorts by
stakeSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['user', 'coin', 'stakingCoin', 'duration']) stakeSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['startedAt', 'unlocksAt', 'claimedAt', 'amount']) stakeSchema.index({ [column]: 1, _id: 1 });
stakeSchema.index({ idempotencyKey: 1 }, { unique: true });
// the recovery sweep: stakes not yet debited, claims not yet paid
stakeSchema.index({ state: 1, createdAt: 1 }, { partialFilterExpression: { state: 'opening' } });
stakeSchema.index({ paidOut: 1, claimedAt: 1 }, { partialFilterExpression: { paidOut: false } });
export const StakeModel = model('Stake', stakeSchema);
