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
      /** Who approved it for the hot wallet, and when. */
      approvedBy: ref('Account', { default: null }),
      approvedAt: { type: Date, default: null },
      /** Above the coin's payoutApprovalAbove: the first of the two operators who must approve. */
      firstApprovedBy: ref('Account', { default: null }),
      firstApprovedAt: { type: Date, default: null },
      /** Its automated payout: the batch that carries it and the message that pays it. */
      payout: {
        batch: { type: Schema.Types.ObjectId, default: null },
        /** The jetton transfer's query id (decimal), or the comment's text for TON. */
        queryId: { type: String, default: '' },
        /** Hash of the internal message's body: how its transactions are found on chain. */
        bodyHash: { type: String, default: '' },
        /** in-batch, sent, confirmed, bounced, expired (re-batched), unsent (re-batched). */
        state: { type: String, default: '' },
        /** When the hot wallet took it into a batch: what counts against the coin's daily cap. */
        batchedAt: { type: Date, default: null },
      },
      /** Why it waits, when it waits for the chain (e.g. the TON API could not be reached). */
      chainNote: { type: String, default: '' },
      idempotencyKey: { type: String, required: true },
      /** The key of the operation that decided it (paid or rejected): one decision stands (withdrawals.kinds.ts). */
      decision: { type: String },
    },
    schemaOptions,
  ),
);
// a player's history, and the console's lists: pending oldest first, done newest first, each filter, each column
// it sorts by, and the search by address or hash
withdrawalSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['status', 'user', 'coin']) withdrawalSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['amount', 'status', 'processedAt']) withdrawalSchema.index({ [column]: 1, _id: 1 });
withdrawalSchema.index({ address: 1 });
withdrawalSchema.index({ txHash: 1 });
// the hot wallet's queue: approved oldest first, and the withdrawals of a batch
withdrawalSchema.index({ status: 1, approvedAt: 1, _id: 1 });
withdrawalSchema.index({ 'payout.batch': 1 });
// today's payouts against each coin's daily cap
withdrawalSchema.index({ 'payout.batchedAt': 1, coin: 1 });
withdrawalSchema.index({ idempotencyKey: 1 }, { unique: true });
// a player's timeline: the approval and the end of their withdrawals, newest first (withdrawalHistory.service.ts)
for (const moment of ['approvedAt', 'processedAt']) withdrawalSchema.index({ user: 1, [moment]: -1, _id: -1 });
export const WithdrawalModel = model('Withdrawal', withdrawalSchema);
/** A withdrawal as mongoose loads it (a hydrated document, with save and toJSON). */
export type WithdrawalDocument = ReturnType<(typeof WithdrawalModel)['hydrate']>;
