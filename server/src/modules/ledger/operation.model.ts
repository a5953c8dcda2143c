import { model, Schema } from 'mongoose';
import { LEDGER_REASONS } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

/**
 * One posting of an operation: an amount of a coin to an account. A player's account names the player (`user`) and its
 * posting moves their balance; a house account (`HOUSE_ACCOUNTS`) has no document of its own, its balance is the sum of its
 * postings, so no reward ever writes to one hot document.
 */
const postingSchema = new Schema(
  {
    /** 'player', or a house account. */
    account: { type: String, required: true },
    user: ref('User', { default: null }),
    coin: ref('GiftCoin', { required: true }),
    amount: money({ required: true }),
    /** A player posting's reason, as their ledger line says it. */
    reason: { type: String, enum: LEDGER_REASONS },
  },
  { _id: false },
);

/**
 * A money movement, written once under its idempotency key and finished by the engine (ledger/engine.ts): recorded (its
 * postings decided), posted (every player posting applied to its balance, each player's ledger line written), done (the
 * kind's follow-up steps run). Its postings add up to zero per coin. A refused operation (a debit the balance does not cover,
 * a player on hold) is removed, leaving nothing, so a later attempt under the same key starts afresh.
 */
const operationSchema = applyConventions(
  new Schema(
    {
      key: { type: String, required: true },
      /** What kind of movement: a ledger reason ('mission', 'stake', 'withdraw', …) or 'payout'. */
      kind: { type: String, required: true },
      /** The record it came from, as the ledger lines name it. */
      refType: { type: String, default: '' },
      refId: { type: String, default: '' },
      state: { type: String, enum: ['recorded', 'posted', 'done'], default: 'recorded' },
      postings: { type: [postingSchema], default: [] },
      /** What the kind's follow-up steps need beyond the postings (a stake's terms), written with the operation. */
      data: { type: Schema.Types.Mixed, default: undefined },
      /** The kind's follow-up steps already run (each runs once per operation). */
      steps: { type: [String], default: [] },
      /** The player whose balance it moves, when one does. */
      user: ref('User', { default: null }),
      /** The player's own doing: refused once they are frozen or banned. */
      guarded: { type: Boolean },
      /** Admitted, then kept owed by the player's hold (finished once it is lifted): not in flight meanwhile. */
      held: { type: Boolean },
      note: { type: String, default: '' },
      createdBy: ref('Account', { default: null }),
      postedAt: { type: Date, default: null },
      doneAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
operationSchema.index({ key: 1 }, { unique: true });
// the engine's sweep (operations a crash left unfinished) and a freeze waiting for the player's own in flight
operationSchema.index({ state: 1, createdAt: 1 });
operationSchema.index({ user: 1, state: 1, createdAt: 1 });
// the books, per kind and per date
operationSchema.index({ kind: 1, createdAt: 1 });
// the books' daily roll-up (a closed day's operations) and what they read live (those posted since, or not yet)
operationSchema.index({ postedAt: 1 });
export const OperationModel = model('Operation', operationSchema);
