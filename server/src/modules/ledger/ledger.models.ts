import { model, Schema } from 'mongoose';
import { LEDGER_REASONS } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

/** One player's holding of one coin. Changed only by the ledger service. */
const balanceSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      amount: money({ min: 0 }),
      /** The keys of the entries applied here and not yet released: the balance refuses to apply one twice. */
      appliedKeys: { type: [String], default: [], select: false, hidden: true },
    },
    schemaOptions,
  ),
);
balanceSchema.index({ user: 1, coin: 1 }, { unique: true });
// a coin's delete guard (does anyone hold it), and the console's players by their balance of a coin, largest first
balanceSchema.index({ coin: 1, amount: -1, _id: -1 });
// the console's list of balances in its other orders
balanceSchema.index({ coin: 1, createdAt: -1, _id: -1 });
balanceSchema.index({ createdAt: -1, _id: -1 });
balanceSchema.index({ amount: 1, _id: 1 });
export const BalanceModel = model('Balance', balanceSchema);

/** Every change of a balance, signed, with the record it came from and a unique idempotency key. */
const ledgerEntrySchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      amount: money({ required: true }),
      reason: { type: String, enum: LEDGER_REASONS, required: true },
      /** The record it came from: 'UserMission', 'MiningSession', 'Stake', 'Withdrawal', 'User', 'Account'. */
      refType: { type: String, default: '' },
      refId: { type: String, default: '' },
      idempotencyKey: { type: String, required: true },
      /**
       * 'posted': every line the engine writes is written posted. 'pending' only on a line the ledger wrote before the engine
       * and a crash left unposted: the money recovery's first pass posts or removes it (ledger/migration.ts); nothing reads it.
       */
      state: { type: String, enum: ['pending', 'posted'], default: 'pending' },
      postedAt: { type: Date, default: null },
      /** false until the balance forgot this entry's key, some minutes after it was posted (see releasePostedKeys). */
      keyReleased: { type: Boolean },
      note: { type: String, default: '' },
      /** The player's own doing: refused once they are frozen or banned (see PostEntry.guarded). */
      guarded: { type: Boolean },
      createdBy: ref('Account', { default: null }),
      /** The operation this line is a player's posting of (lines written before the engine get theirs at start-up). */
      operation: ref('Operation', { default: null }),
    },
    schemaOptions,
  ),
);
// a database written before the engine: the lines that have no operation yet
ledgerEntrySchema.index({ operation: 1, _id: 1 });
ledgerEntrySchema.index({ idempotencyKey: 1 }, { unique: true });
ledgerEntrySchema.index({ user: 1, coin: 1, state: 1 });
// the recovery sweep (entries left pending) and the console's ledger of posted entries, newest first
ledgerEntrySchema.index({ state: 1, createdAt: 1, _id: 1 });
ledgerEntrySchema.index({ reason: 1, state: 1, createdAt: 1, _id: 1 });
// the console's ledger: a player's, each filter, each column it sorts by
for (const filter of ['user', 'coin', 'refType', 'refId']) ledgerEntrySchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['amount', 'reason']) ledgerEntrySchema.index({ state: 1, [column]: 1, _id: 1 });
ledgerEntrySchema.index({ keyReleased: 1, postedAt: 1 }, { partialFilterExpression: { keyReleased: false } });
export const LedgerEntryModel = model('LedgerEntry', ledgerEntrySchema);

/** A frozen or banned player (by their id): their own entries are refused with this code and reason. */
const ledgerHoldSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    code: { type: String, enum: ['ACCOUNT_FROZEN', 'ACCOUNT_BANNED'], required: true },
    reason: { type: String, default: '' },
  },
  { versionKey: false, timestamps: true },
);
export const LedgerHoldModel = model('LedgerHold', ledgerHoldSchema);
