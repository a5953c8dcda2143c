import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

const GIFT_APPROVAL_REASONS = ['threshold', 'daily-limit'] as const;
export type GiftApprovalReason = (typeof GIFT_APPROVAL_REASONS)[number];

/**
 * A gift or correction above its coin's `giftApprovalAbove`, or a credit past what its operator may create alone in a day
 * (`operatorDailyLimit`), waiting for a second operator: nothing reaches the ledger until
 * another operator approves it. Keyed by the form's idempotency key (`admin:<key>`, the key its ledger entry will carry), so a
 * double submit asks once.
 */
const giftApprovalSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      /** Signed: a credit is positive, a correction that takes coins away negative. */
      amount: money({ required: true }),
      note: { type: String, default: '' },
      idempotencyKey: { type: String, required: true },
      requestedBy: ref('Account', { required: true }),
      /** Which brake stopped it: above the coin's threshold, or past the daily limit of what the operator created alone. */
      reason: { type: String, enum: GIFT_APPROVAL_REASONS, default: 'threshold' },
      /** pending → approved (by another operator) → applied once its ledger entry is posted; or rejected. */
      status: { type: String, enum: ['pending', 'approved', 'applied', 'rejected'], default: 'pending' },
      decidedBy: ref('Account', { default: null }),
      decidedAt: { type: Date, default: null },
      rejectReason: { type: String, default: '' },
      entryId: { type: String, default: '' },
    },
    schemaOptions,
  ),
);
giftApprovalSchema.index({ idempotencyKey: 1 }, { unique: true });
// the console's list: newest first, by status (pending first), by player; the sweep's approved ones not yet applied
giftApprovalSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['status', 'user', 'coin', 'requestedBy']) giftApprovalSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
giftApprovalSchema.index({ status: 1, decidedAt: 1 });
giftApprovalSchema.index({ amount: 1, _id: 1 });
export const GiftApprovalModel = model('GiftApproval', giftApprovalSchema);
export type GiftApprovalDocument = ReturnType<(typeof GiftApprovalModel)['hydrate']>;
