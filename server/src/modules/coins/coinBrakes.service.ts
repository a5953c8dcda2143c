import { createHash } from 'node:crypto';
import { model, Schema, Types } from 'mongoose';
import { suggestedCoinBrakes, toMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { isDuplicateKey } from '../../db/mongoErrors';
import { AppError } from '../../lib/errors';
import { GiftCoinModel } from './giftCoin.model';

/** A coin's brakes in micro-units: 0 is "never" (thresholds) or "no limit" (the daily limit), each an explicit choice. */
interface Brakes {
  symbol: string;
  /** Above this a gift, a mission's reward or an App Config reward waits for a second operator. */
  giftApprovalAbove: bigint;
  /** The most one operator creates alone in a rolling 24 hours. */
  operatorDailyLimit: bigint;
}

/** The stored brake, or the suggested one when a coin has none yet (saved before brakes existed, before the migration ran). */
function brake(stored: unknown, suggested: string): bigint {
  return typeof stored === 'number' ? BigInt(stored) : toMicros(suggested);
}

/** A coin's brakes; null when no coin has that id. */
async function brakesOf(coinId: Id): Promise<Brakes | null> {
  const coin = await GiftCoinModel.findById(coinId, { symbol: 1, usdPrice: 1, giftApprovalAbove: 1, operatorDailyLimit: 1 }).lean();
  if (!coin) return null;
  const suggested = suggestedCoinBrakes({ usdPrice: coin.usdPrice });
  return {
    symbol: coin.symbol,
    giftApprovalAbove: brake(coin.giftApprovalAbove, suggested.giftApprovalAbove),
    operatorDailyLimit: brake(coin.operatorDailyLimit, suggested.operatorDailyLimit),
  };
}

/** Whether `amount` (micro-units) of this coin needs a second operator by itself: above the threshold, which is not "never". */
export async function aboveThreshold(coinId: Id, amount: bigint): Promise<boolean> {
  const brakes = await brakesOf(coinId);
  // a coin that is gone: nothing can be paid in it; refusing is the caller's (its field check)
  if (!brakes) return false;
  return brakes.giftApprovalAbove > 0n && amount > brakes.giftApprovalAbove;
}

/**
 * Start-up: coins saved before brakes existed have no `operatorDailyLimit`; their thresholds at 0 were the old implicit
 * "never" (0 was every coin's default and the console could not say otherwise), so they get the suggested amounts, and the
 * daily limit is set. A coin saved since always has the daily limit, so its 0 is an operator's explicit "never" and is kept.
 * One conditional update per coin, on the field's absence: a repeat, another instance, or a restart after a crash midway
 * changes nothing twice. Returns how many coins it set.
 */
export async function applyBrakeDefaults(): Promise<number> {
  const unset = await GiftCoinModel.find(
    { operatorDailyLimit: { $exists: false } },
    { usdPrice: 1, giftApprovalAbove: 1, payoutApprovalAbove: 1 },
  ).lean();
  let set = 0;
  for (const coin of unset) {
    const suggested = suggestedCoinBrakes({ usdPrice: coin.usdPrice });
    const fields: Record<string, number> = { operatorDailyLimit: Number(toMicros(suggested.operatorDailyLimit)) };
    for (const field of ['giftApprovalAbove', 'payoutApprovalAbove'] as const)
      if (!coin[field]) fields[field] = Number(toMicros(suggested[field]));
    const result = await GiftCoinModel.updateOne({ _id: coin._id, operatorDailyLimit: { $exists: false } }, { $set: fields });
    set += result.modifiedCount;
  }
  return set;
}

const DAY_MS = 24 * 3_600_000;

/**
 * What one operator created alone in one coin in the last 24 hours: gifts applied at once and Manual claims approved without
 * a second operator, each by its key. One document per operator and coin, its id derived from both (the embedded database
 * enforces only `_id`'s uniqueness), changed by one conditional update on its version, so two creations at once cannot both slip
 * under the limit.
 */
const operatorCreationsSchema = new Schema(
  {
    account: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin', required: true },
    entries: { type: [{ _id: false, key: String, amount: Number, at: Date }], default: [] },
    version: { type: Number, default: 0 },
  },
  { timestamps: true },
);
const OperatorCreationsModel = model('OperatorCreations', operatorCreationsSchema);

const MAX_ATTEMPTS = 50;

/** One operator's record in one coin: an id derived from both, so two first creations at once meet on one document. */
const creationsId = (operatorId: Id, coinId: Id) =>
  new Types.ObjectId(
    createHash('sha256')
      .update(`operator-creations:${String(operatorId)}:${String(coinId)}`)
      .digest()
      .subarray(0, 12),
  );

/**
 * Counts `amount` (micro-units, positive) created by `operatorId` in this coin under `key`, if it fits the coin's daily limit
 * with what they created alone in the 24 hours before `now`: true when counted (or counted before under the same key, a
 * repeat), false when it does not fit and must wait for a second operator. A crash after counting and before the creation
 * counts something not created: the brake errs on the side of stopping; a repeat under the key does not count it twice.
 */
export async function countTowardDailyLimit(operatorId: Id, coinId: Id, amount: bigint, key: string, now: Date): Promise<boolean> {
  if (amount <= 0n) return true;
  const brakes = await brakesOf(coinId);
  const limit = brakes?.operatorDailyLimit ?? 0n;
  const _id = creationsId(operatorId, coinId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let current;
    try {
      current = await OperatorCreationsModel.findOneAndUpdate(
        { _id },
        { $setOnInsert: { account: objectId(operatorId), coin: objectId(coinId), entries: [], version: 0 } },
        { upsert: true, returnDocument: 'after' },
      ).lean();
    } catch (error) {
      // two first creations at once: the other inserted it; read it on the next attempt
      if (isDuplicateKey(error)) continue;
      throw error;
    }
    if (current.entries.some((entry) => entry.key === key)) return true;
    const since = now.getTime() - DAY_MS;
    const recent = current.entries.filter((entry) => entry.at && entry.at.getTime() > since);
    const created = recent.reduce((sum, entry) => sum + BigInt(entry.amount ?? 0), 0n);
    if (limit > 0n && created + amount > limit) return false;
    const counted = await OperatorCreationsModel.updateOne(
      { _id, version: current.version },
      { $set: { entries: [...recent, { key, amount: Number(amount), at: now }] }, $inc: { version: 1 } },
    );
    if (counted.modifiedCount === 1) return true;
  }
  throw new AppError('UNAVAILABLE');
}

/** What an operator created alone in a coin in the 24 hours before `now` (micro-units), for the console and the tests. */
export async function createdAloneSince(operatorId: Id, coinId: Id, now: Date): Promise<bigint> {
  const current = await OperatorCreationsModel.findById(creationsId(operatorId, coinId)).lean();
  const since = now.getTime() - DAY_MS;
  return (current?.entries ?? []).filter((e) => e.at && e.at.getTime() > since).reduce((sum, e) => sum + BigInt(e.amount ?? 0), 0n);
}
