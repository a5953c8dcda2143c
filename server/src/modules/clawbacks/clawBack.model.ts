import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

/**
 * A credit an operator takes back (a mission approved by mistake, a farm's referral reward): at most once per credit. What the
 * balance covers is taken at once; the rest is owed, taken as the player's balance allows, and blocks their withdrawals
 * until it is settled.
 */
const clawBackSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      /** The ledger entry taken back: one claw-back per credit. */
      entry: { type: String, required: true },
      /** The whole amount to take back (the credit's), and how much of it has been taken so far. */
      amount: money({ required: true }),
      taken: money(),
      reason: { type: String, required: true },
      status: { type: String, enum: ['owed', 'settled'], default: 'owed' },
      createdBy: ref('Account', { required: true }),
      settledAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
clawBackSchema.index({ entry: 1 }, { unique: true });
// a player's debts (the withdrawal check, the player's page); the sweep's owed ones
clawBackSchema.index({ user: 1, status: 1 });
clawBackSchema.index({ status: 1, updatedAt: 1 });
export const ClawBackModel = model('ClawBack', clawBackSchema);
export type ClawBackDocument = ReturnType<(typeof ClawBackModel)['hydrate']>;
