import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions } from '../../db/schemaKit';

/**
 * One signed external message of the hot wallet, carrying up to 255 payouts. Its operation (kind `payout-batch`, see
 * payoutSender.ts) is recorded before anything else; the batch is written before its withdrawals are claimed, signed and
 * recorded before it is sent, and re-sent unchanged until it lands or provably expires (the chain's time passed
 * `validUntil`, or the wallet's seqno moved past it, and it is not among the wallet's transactions).
 */
const payoutBatchSchema = applyConventions(
  new Schema(
    {
      wallet: { type: String, required: true },
      seqno: { type: Number, required: true },
      /** Unix seconds of chain time after which the wallet refuses the message. */
      validUntil: { type: Number, required: true },
      /** The external message (a BoC, base64), exactly as signed. */
      message: { type: String, default: '' },
      /** Hash of the signed body: the wallet transaction whose inbound message has it is this batch's. */
      bodyHash: { type: String, default: '' },
      /** The wallet's last transaction when the batch was signed: its own transaction can only come after. */
      afterLt: { type: String, default: '0' },
      withdrawals: { type: [Schema.Types.ObjectId], default: [] },
      /**
       * claiming (recorded before its withdrawals are claimed, not signed yet) → signed → sent → landed → confirmed;
       * or expired: never signed, or provably never landing (its withdrawals went back to the queue).
       */
      state: { type: String, enum: ['claiming', 'signed', 'sent', 'landed', 'confirmed', 'expired'], default: 'claiming' },
      sends: { type: Number, default: 0 },
      /** The key of the engine's operation that carries it; empty on a batch of an older version (moved on by the round). */
      operation: { type: String, default: '' },
      /** The wallet transaction that carried it (hex hash, and lt). */
      txHash: { type: String, default: '' },
      txLt: { type: String, default: '' },
      landedAt: { type: Date, default: null },
      finishedAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
payoutBatchSchema.index({ state: 1, createdAt: 1 });
payoutBatchSchema.index({ createdAt: -1, _id: -1 });
// a hash typed by hand that is one of the hot wallet's batches (found by its signed body)
payoutBatchSchema.index({ bodyHash: 1 });
export const PayoutBatchModel = model('PayoutBatch', payoutBatchSchema);

/**
 * What paid a withdrawal, recorded as used: the hash of a transaction that paid one by hand, the hash of the hot
 * wallet's batch transaction (which paid the withdrawals of its batch, and nothing else), and the hash of each
 * out-message that paid one (manual or automated). One hash pays one withdrawal (or one batch). The claim is a
 * conditional upsert keyed by the hash: one winner on both engines (the unique index is MongoDB's second guard).
 */
const usedTxHashSchema = new Schema(
  {
    hash: { type: String, required: true },
    /** tx: a transaction's hash; message: an out-message's hash (absent on records older than this field: tx). */
    kind: { type: String, enum: ['tx', 'message'], default: 'tx' },
    withdrawal: { type: Schema.Types.ObjectId, default: null },
    /** A batch transaction's: the batch it carried. */
    batch: { type: Schema.Types.ObjectId, default: null },
  },
  { versionKey: false },
);
usedTxHashSchema.index({ hash: 1 }, { unique: true });
export const UsedTxHashModel = model('UsedTxHash', usedTxHashSchema);
