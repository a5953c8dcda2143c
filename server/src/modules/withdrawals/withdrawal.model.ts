import { model, Schema } from 'mongoose';
import { WITHDRAWAL_STATUSES } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

const withdrawalSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      amount: money({ required: true }),
      address: { type: String, required: true },
      status: { type: String, enum: WITHDRAWAL_STATUSES, default: 'pending' },
      txHash: { type: String, default: '' },
      rejectReason: { type: String, default: '' },
      processedAt: { type: Date, default: null },
      processedBy: ref('Account', { default: null }),
      idempotencyKey: { type: String, required: true },
      /** false from the request until its amount has left the balance (absent on records older than this flag). */
      amountTaken: { type: Boolean },
      /** false from the decision until a rejection is refunded and the player told. */
      settled: { type: Boolean },
    },
    schemaOptions,
  ),
);
withdrawalSchema.index({ status: 1, createdAt: -1 });
withdrawalSchema.index({ user: 1, createdAt: -1 });
withdrawalSchema.index({ idempotencyKey: 1 }, { unique: true });
// the recovery sweep: requests not yet taken, decisions not yet settled
withdrawalSchema.index({ amountTaken: 1, createdAt: 1 }, { partialFilterExpression: { amountTaken: false } });
withdrawalSchema.index({ settled: 1, processedAt: 1 }, { partialFilterExpression: { settled: false } });
export const WithdrawalModel = model('Withdrawal', withdrawalSchema);
