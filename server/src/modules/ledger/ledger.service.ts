import type { Types } from 'mongoose';
import { fromMicros, OBJECT_ID_PATTERN, type HouseAccount, type LedgerReason } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { BalanceModel, LedgerEntryModel, LedgerHoldModel } from './ledger.models';
import { finishInterrupted, guardedInFlight, runOperation, type HousePosting } from './engine';
import { HOUSE_SIDE } from './houseSide';
import { migrateLedgerToOperations } from './migration';
import { OperationModel } from './operation.model';

export { entryKeys } from './entryKeys';
// a money feature's own kinds: an operation with follow-up steps the engine runs once each (see engine.ts)
export {
  finishInterrupted,
  finishLeftOver,
  finishOperation,
  recordBeforeWrite,
  recordOperation,
  registerOperationKind,
  runOperation,
  type OperationKind,
} from './engine';

/**
 * How long a balance keeps the key of an entry after the entry is marked posted. Until then a caller that
 * read the entry as pending a moment earlier could still try to apply it, and the key refuses it; a call
 * that stalls this long has long since timed out. Keys of entries not yet posted are never forgotten.
 */
const KEY_RELEASE_AFTER_MS = 10 * 60_000;

type EntryDocument = ReturnType<(typeof LedgerEntryModel)['hydrate']>;

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
   * is frozen or banned. The check runs after the operation is recorded and before it is applied, so a freeze that waits for
   * the player's recorded operations (`guardedEntriesInFlight`) leaves none to be applied after it.
   */
  guarded?: boolean;
  /** The house's side when it is not the reason's one account (a stake paid back: principal from stakes held, profit created). */
  house?: HousePosting[];
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

/** How many of the player's own operations recorded at or before `before` are still being applied. */
export const guardedEntriesInFlight = guardedInFlight;

export interface PostResult {
  entryId: string;
  /** false when this key had already been posted: nothing changed now. */
  applied: boolean;
}

/**
 * A balance change: one operation of the engine (ledger/engine.ts) with the player's posting and the house's opposite one,
 * recorded under its idempotency key, applied once, its line posted. A second call with the same key changes nothing and
 * says so. Throws INSUFFICIENT_BALANCE (a debit not covered), BALANCE_LIMIT or the player's hold, and leaves nothing.
 */
export async function postEntry(input: PostEntry): Promise<PostResult> {
  const { lineIds, applied } = await runOperation({
    kind: input.reason,
    key: input.idempotencyKey,
    refType: input.refType,
    refId: input.refId,
    players: [{ user: input.userId, coin: input.coinId, amount: input.amount, reason: input.reason }],
    house: input.house ?? [{ account: HOUSE_SIDE[input.reason], coin: input.coinId, amount: -input.amount }],
    note: input.note,
    createdBy: input.createdBy,
    guarded: input.guarded,
  });
  return { entryId: lineIds[0]!, applied };
}

/** Value moving between two house accounts, no player's balance touched (a withdrawal paid: from in flight to paid on chain). */
export async function moveHouseValue(input: {
  kind: string;
  key: string;
  refType: string;
  refId: string;
  coinId: Id;
  from: HouseAccount;
  to: HouseAccount;
  amount: bigint;
  createdBy?: Id | null;
}): Promise<void> {
  await runOperation({
    kind: input.kind,
    key: input.key,
    refType: input.refType,
    refId: input.refId,
    players: [],
    house: [
      { account: input.from, coin: input.coinId, amount: -input.amount },
      { account: input.to, coin: input.coinId, amount: input.amount },
    ],
    createdBy: input.createdBy,
  });
}

/**
 * Finishes operations a crash left unfinished (see the engine). Safe to run any time, from any instance. Lines written
 * before the engine get their operations first, and those an older version left pending are posted or refused (at the first
 * pass after start-up; later passes find none, in one read). Returns how many it finished, those lines included.
 */
export async function recoverPendingEntries(olderThanMs = 30_000): Promise<number> {
  return (await migrateLedgerToOperations()) + (await finishInterrupted(olderThanMs));
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

/** Which of a player's figures each reason counts in; a new reason must say (the record's type asks for every one). */
const FIGURE_OF: Record<LedgerReason, 'rewards' | 'earned' | 'withdrawn' | 'gifts' | 'stakes'> = {
  mission: 'rewards',
  referral: 'rewards',
  streak: 'rewards',
  league_prize: 'rewards',
  mining: 'earned',
  withdraw: 'withdrawn',
  refund: 'withdrawn',
  gift: 'gifts',
  clawback: 'gifts',
  stake: 'stakes',
  unstake: 'stakes',
};

export async function figuresByCoin(userId: Id): Promise<CoinFigures[]> {
  const byCoin = new Map<string, CoinFigures>();
  const stakes = new Map<string, bigint>();
  for (const { coin, reason, total } of await totalsByReason(userId)) {
    const row = byCoin.get(coin) ?? { coin, rewards: 0n, earned: 0n, withdrawn: 0n, gifts: 0n };
    byCoin.set(coin, row);
    const figure = FIGURE_OF[reason];
    if (figure === 'stakes') stakes.set(coin, (stakes.get(coin) ?? 0n) + total);
    else if (figure === 'withdrawn') row.withdrawn -= total;
    else row[figure] += total;
  }
  // staked principal goes out and comes back; what is left over after claims is profit
  for (const [coin, net] of stakes) if (net > 0n) byCoin.get(coin)!.earned += net;
  return [...byCoin.values()];
}

/** How many balances are held in a coin (a coin anyone holds cannot be deleted). */
export function countBalancesInCoin(coinId: string): Promise<number> {
  return BalanceModel.countDocuments({ coin: coinId });
}

/** Posted entries of these reasons recorded in [from, to), summed per coin in micro-units (through the index on reason, state and date). */
export function postedTotalsByCoin(reasons: LedgerReason[], from: Date, to: Date) {
  return LedgerEntryModel.aggregate<{ _id: unknown; total: number }>([
    { $match: { reason: { $in: reasons }, state: 'posted', createdAt: { $gte: from, $lt: to } } },
    { $group: { _id: '$coin', total: { $sum: '$amount' } } },
  ]);
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

/**
 * The lines an older version posted under a plain kind (a ledger reason, as its `postEntry` recorded them; kinds of the engine's
 * own have replaced it since), `limit` operations at a time in their order after the operation `after`: a start-up
 * migration's batches. `last`: where the next batch starts, or null when none is left.
 */
export async function linesOfOlderKind(kind: LedgerReason, after: string, limit: number) {
  const operations = await OperationModel.find({ kind, state: 'done', ...(after ? { _id: { $gt: objectId(after) } } : {}) }, { key: 1 })
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
  const lines = operations.length ? await LedgerEntryModel.find({ idempotencyKey: { $in: operations.map((o) => o.key) } }).lean() : [];
  return { lines, last: operations.length === limit ? String(operations.at(-1)!._id) : null };
}

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
