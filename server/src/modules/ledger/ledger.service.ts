import type { Types } from 'mongoose';
import { microsToStored, type LedgerReason } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { BalanceModel, LedgerEntryModel } from './ledger.models';

/** How many recent idempotency keys a balance remembers; recovery runs long before this many entries pass. */
const REMEMBERED_KEYS = 64;

export interface PostEntry {
  userId: Id;
  coinId: Id;
  /** Signed micro-units: positive credits, negative debits. */
  amount: bigint;
  reason: LedgerReason;
  refType?: string;
  refId?: string;
  /** Unique per balance change: the same key never changes a balance twice. */
  idempotencyKey: string;
  note?: string;
  createdBy?: Id | null;
}

export interface PostResult {
  entryId: string;
  /** false when this key had already been posted: nothing changed now. */
  applied: boolean;
}

/**
 * Applies the entry to the balance exactly once. The balance remembers the keys it applied, and the
 * conditional update refuses a key it already has, so retries and concurrent recoveries are harmless.
 * A debit also requires the balance to cover it, so no balance goes below zero.
 */
async function applyToBalance(entry: { user: Types.ObjectId; coin: Types.ObjectId; amount: number; idempotencyKey: string }) {
  const keyUpdate = { $push: { appliedKeys: { $each: [entry.idempotencyKey], $slice: -REMEMBERED_KEYS } } };
  if (entry.amount >= 0) {
    // created by the pair alone: an upsert also filtered on the keys inserts a second balance when the key is applied
    try {
      await BalanceModel.updateOne({ user: entry.user, coin: entry.coin }, { $setOnInsert: { amount: 0 } }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const result = await BalanceModel.updateOne(
      { user: entry.user, coin: entry.coin, appliedKeys: { $ne: entry.idempotencyKey } },
      { $inc: { amount: entry.amount }, ...keyUpdate },
    );
    return result.modifiedCount > 0 ? 'applied' : 'already';
  }
  const updated = await BalanceModel.findOneAndUpdate(
    { user: entry.user, coin: entry.coin, amount: { $gte: -entry.amount }, appliedKeys: { $ne: entry.idempotencyKey } },
    { $inc: { amount: entry.amount }, ...keyUpdate },
  );
  if (updated) return 'applied';
  const already = await BalanceModel.exists({ user: entry.user, coin: entry.coin, appliedKeys: entry.idempotencyKey });
  return already ? 'already' : 'insufficient';
}

/**
 * The only way a balance changes. Records the entry under its idempotency key, applies it once,
 * then marks it posted. A second call with the same key changes nothing and says so.
 * Throws INSUFFICIENT_BALANCE (and leaves no entry) when a debit is not covered.
 */
export async function postEntry(input: PostEntry): Promise<PostResult> {
  if (input.amount === 0n) throw new AppError('BAD_INPUT');
  const fields = {
    user: objectId(input.userId),
    coin: objectId(input.coinId),
    amount: microsToStored(input.amount),
    reason: input.reason,
    refType: input.refType ?? '',
    refId: input.refId ?? '',
    idempotencyKey: input.idempotencyKey,
    note: input.note ?? '',
    createdBy: input.createdBy ? objectId(input.createdBy) : null,
    state: 'pending' as const,
  };
  let entry;
  try {
    const result = await LedgerEntryModel.findOneAndUpdate(
      { idempotencyKey: input.idempotencyKey },
      { $setOnInsert: fields },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true },
    );
    entry = result.value!;
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    entry = (await LedgerEntryModel.findOne({ idempotencyKey: input.idempotencyKey }))!;
  }
  if (entry.state === 'posted') return { entryId: String(entry._id), applied: false };

  const outcome = await applyToBalance(entry);
  if (outcome === 'insufficient') {
    await LedgerEntryModel.deleteOne({ _id: entry._id, state: 'pending' });
    throw new AppError('INSUFFICIENT_BALANCE');
  }
  await LedgerEntryModel.updateOne({ _id: entry._id, state: 'pending' }, { $set: { state: 'posted' } });
  // the balance's key guard lets exactly one caller apply an entry, whichever caller recorded it
  return { entryId: String(entry._id), applied: outcome === 'applied' };
}

/** Finishes entries left pending by a crash between recording and posting. Safe to run any time. */
export async function recoverPendingEntries(olderThanMs = 30_000): Promise<number> {
  const stale = await LedgerEntryModel.find({ state: 'pending', createdAt: { $lte: new Date(Date.now() - olderThanMs) } }).limit(1000);
  let recovered = 0;
  for (const entry of stale) {
    const outcome = await applyToBalance(entry);
    if (outcome === 'insufficient') await LedgerEntryModel.deleteOne({ _id: entry._id, state: 'pending' });
    else if ((await LedgerEntryModel.updateOne({ _id: entry._id, state: 'pending' }, { $set: { state: 'posted' } })).modifiedCount) recovered++;
  }
  return recovered;
}

export async function balanceOf(userId: Id, coinId: Id): Promise<bigint> {
  const balance = await BalanceModel.findOne({ user: userId, coin: coinId }, { amount: 1 }).lean();
  return BigInt(balance?.amount ?? 0);
}

/** Every balance of a player, by coin id. */
export async function balancesOf(userId: Id): Promise<Map<string, bigint>> {
  const balances = await BalanceModel.find({ user: userId }, { coin: 1, amount: 1 }).lean();
  return new Map(balances.map((b) => [String(b.coin), BigInt(b.amount)]));
}

/** Sum of posted entries per reason for one player and coin: the figures rewards/earned/withdrawn/gifts follow from. */
async function totalsByReason(userId: Id): Promise<Array<{ coin: string; reason: LedgerReason; total: bigint }>> {
  const rows = await LedgerEntryModel.aggregate<{ _id: { coin: Types.ObjectId; reason: LedgerReason }; total: number }>([
    { $match: { user: objectId(userId), state: 'posted' } },
    { $group: { _id: { coin: '$coin', reason: '$reason' }, total: { $sum: '$amount' } } },
  ]);
  return rows.map((r) => ({ coin: String(r._id.coin), reason: r._id.reason, total: BigInt(r.total) }));
}

/** A player's money figures per coin, derived from posted ledger entries only. */
export interface CoinFigures {
  coin: string;
  /** Mission and referral rewards. */
  rewards: bigint;
  /** Mining, and staking profit returned. */
  earned: bigint;
  /** Withdrawn, net of refunds. */
  withdrawn: bigint;
  /** Operator gifts and corrections. */
  gifts: bigint;
}

export async function figuresByCoin(userId: Id): Promise<CoinFigures[]> {
  const byCoin = new Map<string, CoinFigures>();
  const stakes = new Map<string, bigint>();
  for (const { coin, reason, total } of await totalsByReason(userId)) {
    const row = byCoin.get(coin) ?? { coin, rewards: 0n, earned: 0n, withdrawn: 0n, gifts: 0n };
    byCoin.set(coin, row);
    if (reason === 'mission' || reason === 'referral') row.rewards += total;
    else if (reason === 'mining') row.earned += total;
    else if (reason === 'withdraw' || reason === 'refund') row.withdrawn -= total;
    else if (reason === 'gift') row.gifts += total;
    else stakes.set(coin, (stakes.get(coin) ?? 0n) + total);
  }
  // staked principal goes out and comes back; what is left over after claims is profit
  for (const [coin, net] of stakes) if (net > 0n) byCoin.get(coin)!.earned += net;
  return [...byCoin.values()];
}

/** How many balances are held in a coin (a coin anyone holds cannot be deleted). */
export function countBalancesInCoin(coinId: string): Promise<number> {
  return BalanceModel.countDocuments({ coin: coinId });
}

/** One page of posted entries matching a console filter, newest first, and how many match in all. */
export function postedEntriesPage(query: Record<string, unknown>, skip: number, limit: number) {
  return Promise.all([LedgerEntryModel.find(query).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit), LedgerEntryModel.countDocuments(query)]);
}

/** Posted entries of these reasons summed per coin, in micro-units. */
export function postedTotalsByCoin(reasons: LedgerReason[]) {
  return LedgerEntryModel.aggregate<{ _id: unknown; total: number }>([
    { $match: { state: 'posted', reason: { $in: reasons } } },
    { $group: { _id: '$coin', total: { $sum: '$amount' } } },
  ]);
}

/** The entry written under this idempotency key, if any. */
export function entryWithKey(idempotencyKey: string) {
  return LedgerEntryModel.findOne({ idempotencyKey }).lean();
}
