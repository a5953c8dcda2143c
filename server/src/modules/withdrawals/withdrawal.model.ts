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
    },
    schemaOptions,
  ),
);
withdrawalSchema.index({ status: 1, createdAt: -1 });
withdrawalSchema.index({ user: 1, createdAt: -1 });
withdrawalSchema.index({ idempotencyKey: 1 }, { unique: true });
export const WithdrawalModel = model('Withdrawal', withdrawalSchema);
