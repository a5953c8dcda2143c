import { model, Schema } from 'mongoose';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';

const ACCOUNT_GRANT_STATUSES = ['pending', 'approved', 'applied', 'rejected'] as const;

/**
 * Money permissions asked for an operator's account (at its creation or later), waiting for a second, independent operator,
 * as a big gift does. The account carries the same request (`pendingGrant`, same `_id`) from the write that asked for it,
 * so the request survives a crash before this record; the permissions reach the account only through the approval.
 */
const accountGrantSchema = applyConventions(
  new Schema(
    {
      account: ref('Account', { required: true }),
      /** The account's username when asked, so the list reads without a lookup (and after a deletion). */
      username: { type: String, required: true },
      permissions: { type: [String], required: true },
      requestedBy: ref('Account', { required: true }),
      /** pending → approved (by a second operator) → applied once the account holds them; or rejected. */
      status: { type: String, enum: ACCOUNT_GRANT_STATUSES, default: 'pending' },
      decidedBy: ref('Account', { default: null }),
      decidedAt: { type: Date, default: null },
      rejectReason: { type: String, default: '' },
    },
    schemaOptions,
  ),
);
// the console's list: newest first, by status, account or the operator who asked; the sweep's approved ones not yet applied
accountGrantSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['status', 'account', 'requestedBy']) accountGrantSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
accountGrantSchema.index({ status: 1, decidedAt: 1 });
accountGrantSchema.index({ username: 1, _id: 1 });
export const AccountGrantModel = model('AccountGrant', accountGrantSchema);
export type AccountGrantDocument = ReturnType<(typeof AccountGrantModel)['hydrate']>;
