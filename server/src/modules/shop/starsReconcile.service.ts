import { isValidObjectId, model, Schema } from 'mongoose';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { idOfKey } from '../../db/ids';
import { botApi, recordStarPayment } from './shop.service';
import { StarPurchaseModel } from './shop.models';

/**
 * Reconciliation with Telegram's own record of Star payments (Bot API `getStarTransactions`): a `successful_payment` the
 * bot never received (the bot down too long, a webhook lost) would otherwise grant nothing and nobody would notice. Each
 * incoming payment whose charge id no purchase holds is granted through the same operation as `successful_payment`
 * (`stars:<charge>`), so the job and a late update grant once between them. A payment whose payload names no purchase
 * is kept as unmatched, for an operator, and logged as an error.
 */

/** Telegram answers at most 100 transactions a call. */
const PAGE = 100;
const CURSOR = 'stars-transactions';

/** How many of the bot's Star transactions (oldest first) were read: Telegram's list only grows at its end. */
const starsCursorSchema = new Schema({ offset: { type: Number, default: 0 } }, { versionKey: false });
const StarsCursorModel = model('StarsCursor', starsCursorSchema);

/** An incoming Star payment no purchase could take (its payload unknown, or its invoice paid under another charge). */
const unmatchedStarPaymentSchema = new Schema(
  {
    /** Telegram's telegram_payment_charge_id (the record's id is derived from it: one record per charge). */
    chargeId: { type: String, required: true },
    amount: { type: Number, required: true },
    userId: { type: Number, default: null },
    payload: { type: String, default: '' },
    /** payload: it names no purchase; paid: its invoice was paid under another charge. */
    why: { type: String, enum: ['payload', 'paid'], required: true },
    paidAt: { type: Date, required: true },
    seenAt: { type: Date, required: true },
  },
  { versionKey: false },
);
unmatchedStarPaymentSchema.index({ seenAt: 1 });
export const UnmatchedStarPaymentModel = model('UnmatchedStarPayment', unmatchedStarPaymentSchema);

/** The record of an unmatched charge. */
export const unmatchedId = (chargeId: string) => idOfKey('unmatched-star-payment', chargeId);

interface Transaction {
  id: string;
  amount: number;
  date: number;
  source?: { type: string; user?: { id: number }; invoice_payload?: string };
}

async function unmatched(transaction: Transaction, why: 'payload' | 'paid', now: Date, logger?: Logger): Promise<void> {
  const payload = transaction.source?.invoice_payload ?? '';
  const kept = await UnmatchedStarPaymentModel.updateOne(
    { _id: unmatchedId(transaction.id) },
    {
      $setOnInsert: {
        chargeId: transaction.id,
        amount: transaction.amount,
        userId: transaction.source?.user?.id ?? null,
        payload,
        why,
        paidAt: new Date(transaction.date * 1000),
        seenAt: now,
      },
    },
    { upsert: true },
  );
  if (kept.upsertedCount) logger?.error({ chargeId: transaction.id, payload, why }, 'a Star payment matches no purchase');
}

/** One transaction: 1 when it granted a payment the bot had not recorded. */
async function reconcileOne(transaction: Transaction, now: Date, logger?: Logger): Promise<number> {
  const source = transaction.source;
  // an incoming payment from a player (refunds and withdrawals go the other way)
  if (source?.type !== 'user' || !(transaction.amount > 0) || source.invoice_payload === undefined) return 0;
  if (await StarPurchaseModel.exists({ chargeId: transaction.id })) return 0;
  const payload = source.invoice_payload;
  const purchase = isValidObjectId(payload) ? await StarPurchaseModel.exists({ _id: payload }) : null;
  if (!purchase) {
    await unmatched(transaction, 'payload', now, logger);
    return 0;
  }
  await recordStarPayment({
    currency: 'XTR',
    total_amount: transaction.amount,
    invoice_payload: payload,
    telegram_payment_charge_id: transaction.id,
  });
  if (await StarPurchaseModel.exists({ chargeId: transaction.id })) return 1;
  await unmatched(transaction, 'paid', now, logger);
  return 0;
}

/**
 * Reads the bot's Star transactions from where the last pass stopped, a page at a time, and grants each incoming payment
 * no purchase holds. Nothing to do (no Bot API call) while no invoice waits for its payment. Returns how many it granted.
 */
export async function reconcileStarPayments(now: Date, logger?: Logger): Promise<number> {
  if (!(await StarPurchaseModel.exists({ status: 'pending' }))) return 0;
  let api: Awaited<ReturnType<typeof botApi>>;
  try {
    api = await botApi();
  } catch (error) {
    if (error instanceof AppError) return 0;
    throw error;
  }
  let offset = (await StarsCursorModel.findById(idOfKey(CURSOR)).lean())?.offset ?? 0;
  let granted = 0;
  for (;;) {
    const { transactions } = await api.getStarTransactions({ offset, limit: PAGE });
    for (const transaction of transactions) granted += await reconcileOne(transaction, now, logger);
    offset += transactions.length;
    await StarsCursorModel.updateOne({ _id: idOfKey(CURSOR) }, { $set: { offset } }, { upsert: true });
    if (transactions.length < PAGE) return granted;
  }
}

/** The unmatched payments first seen since `since`, oldest first, for the operators' alerts. */
export async function unmatchedStarPaymentsSince(since: Date) {
  const found = await UnmatchedStarPaymentModel.find({ seenAt: { $gte: since } }, { chargeId: 1, amount: 1, why: 1, seenAt: 1 })
    .sort({ seenAt: 1 })
    .limit(100)
    .lean();
  return found.map((row) => ({ chargeId: row.chargeId, stars: row.amount, why: row.why, seenAt: row.seenAt }));
}
