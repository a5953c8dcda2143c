import type { Types } from 'mongoose';
import { fromMicros, microsToStored, OBJECT_ID_PATTERN, type LedgerReason } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { faultPoint } from '../../lib/faults';
import { BalanceModel, LedgerEntryModel, LedgerHoldModel } from './ledger.models';
import { plural, registerCoinUse } from '../coins/giftCoinDeletion.service';

export { entryKeys } from './entryKeys';

/**
 * How long a balance keeps the key of an entry after the entry is marked posted. Until then a caller that
 * read the entry as pending a moment earlier could still try to apply it, and the key refuses it; a call
 * that stalls this long has long since timed out. Keys of entries not yet posted are never forgotten.
 */
const KEY_RELEASE_AFTER_MS = 10 * 60_000;

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
  /**
   * The player's own doing (a claim, a mining move, a stake, a withdrawal): refused, with nothing changed, once the player
   * is frozen or banned. The check runs after the entry is recorded and before it is applied, so a freeze that waits for the
   * player's recorded entries (`guardedEntriesInFlight`) leaves no such entry to be applied after it.
   */
  guarded?: boolean;
}

export type HoldCode = 'ACCOUNT_FROZEN' | 'ACCOUNT_BANNED';

/**
 * Holds a player's own entries (a freeze or a ban): from now on each is refused with `code` and the reason, and the
 * caller then waits for the ones already recorded (`guardedEntriesInFlight`).
 */
export async function holdPlayer(userId: Id, code: HoldCode, reason: string): Promise<void> {
  await LedgerHoldModel.updateOne({ _id: objectId(userId) }, { $set: { code, reason } }, { upsert: true });
}

/** The player is active again: their own entries apply. */
export async function releasePlayer(userId: Id): Promise<void> {
  await LedgerHoldModel.deleteOne({ _id: objectId(userId) });
}

/** Every hold (frozen and banned players are few): the recovery sweep compares them with the players' statuses. */
export function heldPlayers() {
  return LedgerHoldModel.find({}, { code: 1 }).lean();
}

/** The hold on a player (frozen or banned, with the reason), or null. */
export function holdOf(userId: Id) {
  return LedgerHoldModel.findById(objectId(userId), { code: 1, reason: 1 }).lean();
}

async function guardRefusal(entry: { user: Types.ObjectId; guarded?: boolean | null }): Promise<AppError | null> {
  if (!entry.guarded) return null;
  const hold = await LedgerHoldModel.findById(entry.user, { code: 1, reason: 1 }).lean();
  return hold ? new AppError(hold.code, { reason: hold.reason }) : null;
}

/** How many of the player's own entries recorded at or before `before` are still being applied. */
export function guardedEntriesInFlight(userId: Id, before: Date): Promise<number> {
  return LedgerEntryModel.countDocuments({ user: objectId(userId), state: 'pending', guarded: true, createdAt: { $lte: before } });
}

export interface PostResult {
  entryId: string;
  /** false when this key had already been posted: nothing changed now. */
  applied: boolean;
}

type ApplyOutcome = 'applied' | 'already' | 'insufficient' | 'over-limit';

/**
 * Applies the entry to the balance exactly once. The balance holds the key of every entry applied to it
 * and not yet released (see `releasePostedKeys`), and the conditional update refuses a key it holds, so
 * retries, the sweep and concurrent callers are harmless however many other changes come in between.
 * A debit also requires the balance to cover it (no balance goes below zero), a credit requires room
 * below 2^53 - 1 micro-units (the largest the database stores exactly).
 */
async function applyToBalance(entry: {
  user: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  idempotencyKey: string;
}): Promise<ApplyOutcome> {
  const pair = { user: entry.user, coin: entry.coin };
  const keyUpdate = { $inc: { amount: entry.amount }, $push: { appliedKeys: entry.idempotencyKey } };
  if (entry.amount >= 0) {
    // created by the pair alone: an upsert also filtered on the keys inserts a second balance when the key is applied
    try {
      await BalanceModel.updateOne(pair, { $setOnInsert: { amount: 0 } }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
  const room = entry.amount >= 0 ? { $lte: Number.MAX_SAFE_INTEGER - entry.amount } : { $gte: -entry.amount };
  const result = await BalanceModel.updateOne({ ...pair, amount: room, appliedKeys: { $ne: entry.idempotencyKey } }, keyUpdate);
  if (result.modifiedCount > 0) return 'applied';
  if (await BalanceModel.exists({ ...pair, appliedKeys: entry.idempotencyKey })) return 'already';
  return entry.amount >= 0 ? 'over-limit' : 'insufficient';
}

type EntryDocument = ReturnType<(typeof LedgerEntryModel)['hydrate']>;

async function markPosted(entryId: Types.ObjectId): Promise<boolean> {
  const marked = await LedgerEntryModel.updateOne({ _id: entryId, state: 'pending' }, { $set: { state: 'posted', postedAt: new Date() } });
  return marked.modifiedCount > 0;
}

/**
 * Records the entry as posted once its key is in the balance. Usually it is still pending; a concurrent
 * caller that found the balance short a moment earlier may have removed it, and then it is recorded again
 * (by its key, so never twice): the key in the balance proves it was applied.
 */
async function settlePosted(entry: EntryDocument): Promise<boolean> {
  if (await markPosted(entry._id)) return true;
  const { user, coin, amount, reason, refType, refId, idempotencyKey, note, createdBy, createdAt, keyReleased } = entry;
  await LedgerEntryModel.updateOne(
    { idempotencyKey },
    {
      $setOnInsert: {
        user,
        coin,
        amount,
        reason,
        refType,
        refId,
        idempotencyKey,
        note,
        createdBy,
        createdAt,
        keyReleased,
        state: 'posted',
        postedAt: new Date(),
      },
    },
    { upsert: true, timestamps: false },
  );
  return false;
}

/**
 * A refused entry leaves nothing behind, and says why. Unless a concurrent caller with the same key applied
 * it meanwhile (the balance had been topped up): then it stands, posted, and this caller is told it was.
 */
async function refuse(entry: EntryDocument, outcome: 'insufficient' | 'over-limit' | AppError): Promise<PostResult> {
  await faultPoint('ledger:refusing');
  await LedgerEntryModel.deleteOne({ _id: entry._id, state: 'pending' });
  await faultPoint('ledger:refused');
  if (await BalanceModel.exists({ user: entry.user, coin: entry.coin, appliedKeys: entry.idempotencyKey })) {
    await settlePosted(entry);
    return { entryId: String(entry._id), applied: false };
  }
  if (outcome instanceof AppError) throw outcome;
  throw new AppError(outcome === 'insufficient' ? 'INSUFFICIENT_BALANCE' : 'BALANCE_LIMIT');
}

/**
 * The only way a balance changes. Records the entry under its idempotency key, applies it once,
 * then marks it posted. A second call with the same key changes nothing and says so.
 * Throws INSUFFICIENT_BALANCE (a debit not covered) or BALANCE_LIMIT and leaves no entry.
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
    ...(input.guarded ? { guarded: true } : {}),
    state: 'pending' as const,
    keyReleased: false,
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
  await faultPoint('ledger:after-record');
  const refusal = await guardRefusal(entry);
  if (refusal) return refuse(entry, refusal);

  const outcome = await applyToBalance(entry);
  if (outcome === 'insufficient' || outcome === 'over-limit') return refuse(entry, outcome);
  await faultPoint('ledger:after-apply');
  await settlePosted(entry);
  // the balance's key guard lets exactly one caller apply an entry, whichever caller recorded it
  return { entryId: String(entry._id), applied: outcome === 'applied' };
}

/** Finishes entries left pending by a crash between recording and posting. Safe to run any time, from any instance. */
export async function recoverPendingEntries(olderThanMs = 30_000): Promise<number> {
  const stale = await LedgerEntryModel.find({ state: 'pending', createdAt: { $lte: new Date(Date.now() - olderThanMs) } })
    .sort({ createdAt: 1 })
    .limit(1000);
  let recovered = 0;
  for (const entry of stale) {
    // a player frozen or banned since their own entry was recorded: it is undone as the refusal undoes it (kept if a
    // crash came after the balance took it)
    if (await guardRefusal(entry)) {
      await refuse(entry, 'insufficient').catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
      });
      continue;
    }
    const outcome = await applyToBalance(entry);
    if (outcome === 'insufficient' || outcome === 'over-limit') await LedgerEntryModel.deleteOne({ _id: entry._id, state: 'pending' });
    else if (await settlePosted(entry)) recovered++;
  }
  return recovered;
}

/**
 * Lets balances forget the keys of entries posted longer than KEY_RELEASE_AFTER_MS ago: a posted entry
 * is never applied again (every caller reads its state first), so its key has no more work to do.
 * Entries posted before keys were released this way carry no `keyReleased` and keep the bounded list
 * they had. Returns how many keys were released.
 */
export async function releasePostedKeys(now = new Date(), releaseAfterMs = KEY_RELEASE_AFTER_MS): Promise<number> {
  const cutoff = new Date(now.getTime() - releaseAfterMs);
  let released = 0;
  // up to 10,000 a pass: a sweep every few seconds keeps up with thousands of entries a second
  for (let batch = 0; batch < 10; batch++) {
    const posted = await LedgerEntryModel.find(
      { keyReleased: false, state: 'posted', postedAt: { $lte: cutoff } },
      { user: 1, coin: 1, idempotencyKey: 1 },
    )
      .limit(1000)
      .lean();
    for (const entry of posted) {
      await BalanceModel.updateOne({ user: entry.user, coin: entry.coin }, { $pull: { appliedKeys: entry.idempotencyKey } });
      await LedgerEntryModel.updateOne({ _id: entry._id }, { $set: { keyReleased: true } });
    }
    released += posted.length;
    if (posted.length < 1000) break;
  }
  return released;
}

export async function balanceOf(userId: Id, coinId: Id): Promise<bigint> {
  const balance = await BalanceModel.findOne({ user: userId, coin: coinId }, { amount: 1 }).lean();
  return BigInt(balance?.amount ?? 0);
}

/** Of these players, the ids of those holding at least `atLeast` micro-units of the coin. */
export async function holdersAmong(playerIds: Id[], coinId: Id, atLeast: bigint): Promise<Set<string>> {
  const holders = await BalanceModel.find(
    { user: { $in: playerIds.map(objectId) }, coin: objectId(coinId), amount: { $gte: Number(atLeast) } },
    { user: 1 },
  ).lean();
  return new Set(holders.map((h) => String(h.user)));
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
  /** Operator gifts, corrections and claw-backs. */
  gifts: bigint;
}

export async function figuresByCoin(userId: Id): Promise<CoinFigures[]> {
  const byCoin = new Map<string, CoinFigures>();
  const stakes = new Map<string, bigint>();
  for (const { coin, reason, total } of await totalsByReason(userId)) {
    const row = byCoin.get(coin) ?? { coin, rewards: 0n, earned: 0n, withdrawn: 0n, gifts: 0n };
    byCoin.set(coin, row);
    if (reason === 'mission' || reason === 'referral' || reason === 'streak') row.rewards += total;
    else if (reason === 'mining') row.earned += total;
    else if (reason === 'withdraw' || reason === 'refund') row.withdrawn -= total;
    else if (reason === 'gift' || reason === 'clawback') row.gifts += total;
    else stakes.set(coin, (stakes.get(coin) ?? 0n) + total);
  }
  // staked principal goes out and comes back; what is left over after claims is profit
  for (const [coin, net] of stakes) if (net > 0n) byCoin.get(coin)!.earned += net;
  return [...byCoin.values()];
}

/** How many balances are held in a coin (a coin anyone holds cannot be deleted). */
function countBalancesInCoin(coinId: string): Promise<number> {
  return BalanceModel.countDocuments({ coin: coinId });
}

/** Posted entries of these reasons recorded in [from, to), summed per coin in micro-units (through the index on reason, state and date). */
export function postedTotalsByCoin(reasons: LedgerReason[], from: Date, to: Date) {
  return LedgerEntryModel.aggregate<{ _id: unknown; total: number }>([
    { $match: { reason: { $in: reasons }, state: 'posted', createdAt: { $gte: from, $lt: to } } },
    { $group: { _id: '$coin', total: { $sum: '$amount' } } },
  ]);
}

/** Posted entries of one reason created in [from, to], oldest first (at most 1000). */
export function postedEntriesBetween(reason: LedgerReason, from: Date, to: Date) {
  return LedgerEntryModel.find({ reason, state: 'posted', createdAt: { $gte: from, $lte: to } })
    .sort({ createdAt: 1 })
    .limit(1000)
    .lean();
}

/**
 * What a cluster's clean-up takes back: posted credits of these reasons to these players, and the referral rewards paid (to
 * whoever invited them) for these players; oldest first.
 */
export function creditsToTakeBack(playerIds: Id[], reasons: readonly LedgerReason[]) {
  const ids = playerIds.map(objectId);
  return Promise.all([
    LedgerEntryModel.find({ user: { $in: ids }, reason: { $in: reasons }, state: 'posted', amount: { $gt: 0 } })
      .sort({ _id: 1 })
      .lean(),
    LedgerEntryModel.find({ reason: 'referral', refType: 'User', refId: { $in: ids.map(String) }, state: 'posted', amount: { $gt: 0 } })
      .sort({ _id: 1 })
      .lean(),
  ]);
}

/** The entry written under this idempotency key, if any. */
/** One entry by its id (an operator's claw-back names the credit), or null. */
export function entryById(entryId: string) {
  return OBJECT_ID_PATTERN.test(entryId) ? LedgerEntryModel.findById(entryId).lean() : Promise.resolve(null);
}

export function entryWithKey(idempotencyKey: string) {
  return LedgerEntryModel.findOne({ idempotencyKey }).lean();
}

registerCoinUse({ order: 1, count: countBalancesInCoin, describe: (count) => plural(count, 'balance') });

/** One posted entry as the console lists it on a player's page: signed amount, why, where from, and the operator who made it. */
export function presentLedgerEntry(doc: unknown) {
  const entry = doc as EntryDocument & { createdBy?: { _id: Types.ObjectId; username?: string } | Types.ObjectId | null };
  const operator = entry.createdBy && 'username' in entry.createdBy ? entry.createdBy : null;
  return {
    id: String(entry._id),
    user: String(entry.user),
    coin: String(entry.coin),
    amount: fromMicros(entry.amount),
    reason: entry.reason,
    refType: entry.refType,
    refId: entry.refId,
    note: entry.note,
    idempotencyKey: entry.idempotencyKey,
    state: entry.state,
    createdBy: entry.createdBy ? String(operator ? operator._id : entry.createdBy) : null,
    operator: operator?.username ?? '',
    createdAt: entry.createdAt,
    postedAt: entry.postedAt,
  };
}
