import { createHash, randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { fromMicros, stakeAmountRefusal, STAKING_DURATION_KEYS, STAKING_DURATIONS, toMicros, type StakingDuration } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { migrateOnce } from '../../db/migrationProgress';
import { objectId, scopedKey, type Id } from '../../db/ids';
import type { ConsoleRecord, NewRecord } from '../../db/schemaKit';
import type { ChangeTarget } from '../accounts/waitingChanges.service';
import { coinNameFor, findCoin, findCoins, giftCoinIsEnabled } from '../coins/giftCoins.service';
import { balancesOf, postEntry } from '../ledger/ledger.service';
import { faultPoint } from '../../lib/faults';
import { planted } from '../../lib/mutations';
import { StakeModel, StakingCoinModel } from './staking.models';
import { claimStakeOnce, openStake, type StakeTermsRecord } from './staking.kinds';
import { stakeCountdown, stakeProfit, unlockDate } from './stakingRules';
import { plural, registerCoinUse } from '../coins/giftCoinDeletion.service';

interface OfferRow {
  _id: Types.ObjectId;
  coin: Types.ObjectId;
  enabled: boolean;
  minAmount: number;
  maxAmount: number;
  profits?: Partial<Record<StakingDuration, string>> | null;
}

/** The durations an offer has a profit percent for, in the product's order. */
function offeredDurations(offer: OfferRow) {
  return STAKING_DURATION_KEYS.flatMap((duration) => {
    const percent = offer.profits?.[duration];
    return percent ? [{ duration, days: STAKING_DURATIONS[duration].days, percent }] : [];
  });
}

/** GET /api/admin/staking-coins: a staking offer as the console lists and edits it. */
export type StakingOfferRecord = ConsoleRecord<typeof StakingCoinModel, 'minAmount' | 'maxAmount'>;

/** Every enabled staking offer whose coin is enabled, with the player's balance of that coin. */

export async function stakingOffers(userId: Id, language?: string) {
  const [offers, balances] = await Promise.all([
    StakingCoinModel.find({ enabled: true }).sort({ order: 1, _id: 1 }).lean<OfferRow[]>(),
    balancesOf(userId),
  ]);
  const coins = await findCoins(
    offers.map((o) => o.coin),
    { name: 1, fa: 1, symbol: 1, icon: 1 },
    { enabled: true },
  );
  const coinById = new Map(coins.map((c) => [String(c._id), c]));
  return offers.flatMap((offer) => {
    const coin = coinById.get(String(offer.coin));
    const durations = offeredDurations(offer);
    if (!coin || !durations.length) return [];
    return [
      {
        id: String(offer._id),
        coin: { id: String(coin._id), name: coinNameFor(coin, language), symbol: coin.symbol, icon: coin.icon ?? '' },
        minAmount: fromMicros(offer.minAmount),
        maxAmount: fromMicros(offer.maxAmount),
        durations,
        balance: fromMicros(balances.get(String(coin._id)) ?? 0n),
      },
    ];
  });
}

async function enabledOffer(stakingCoinId: string): Promise<OfferRow> {
  const offer = await StakingCoinModel.findById(objectId(stakingCoinId)).lean<OfferRow>();
  if (!offer) throw new AppError('NOT_FOUND');
  const coinEnabled = offer.enabled && (await giftCoinIsEnabled(offer.coin));
  if (!coinEnabled) throw new AppError('STAKING_DISABLED');
  return offer;
}

export interface StakeTerms {
  stakingCoinId: string;
  amount: string;
  duration: string;
}

function termsOf(offer: OfferRow, input: StakeTerms, now: Date) {
  const duration = input.duration as StakingDuration;
  const percent = STAKING_DURATION_KEYS.includes(duration) ? offer.profits?.[duration] : undefined;
  if (!percent) throw badInput({ duration: 'This duration is not offered for this coin' });
  const amount = toMicros(input.amount);
  const refusal = stakeAmountRefusal(amount, BigInt(offer.minAmount), BigInt(offer.maxAmount));
  if (refusal) throw new AppError(refusal, { min: fromMicros(offer.minAmount), max: fromMicros(offer.maxAmount) });
  const profit = stakeProfit(amount, percent);
  return { amount, duration, percent, profit, total: amount + profit, startedAt: now, unlocksAt: unlockDate(now, duration) };
}

function presentTerms(terms: ReturnType<typeof termsOf>) {
  return {
    amount: fromMicros(terms.amount),
    duration: terms.duration,
    percent: terms.percent,
    profit: fromMicros(terms.profit),
    total: fromMicros(terms.total),
    unlocksAt: terms.unlocksAt,
  };
}

/** What staking this amount for this duration would give, shown before the player confirms. */
export async function quoteStake(input: StakeTerms, now: Date) {
  return presentTerms(termsOf(await enabledOffer(input.stakingCoinId), input, now));
}

/** The same client key of the same player always names the same stake, so a retry finds it. */
function stakeIdFor(stakeKey: string): Types.ObjectId {
  return new Types.ObjectId(createHash('sha256').update(`stake:${stakeKey}`).digest().subarray(0, 12));
}

/** A stake as read back: its record, and when it was claimed. */
interface StakeRow extends StakeTermsRecord {
  claimedAt: Date | null;
}

function presentStake(stake: StakeRow, symbol: string, now: Date) {
  return {
    id: String(stake._id),
    coin: { id: String(stake.coin), symbol },
    amount: fromMicros(stake.amount),
    duration: stake.duration,
    percent: stake.profitPercent,
    profit: fromMicros(stake.profit),
    total: fromMicros(BigInt(stake.amount) + BigInt(stake.profit)),
    startedAt: stake.startedAt,
    unlocksAt: stake.unlocksAt,
    claimedAt: stake.claimedAt ?? null,
    ...stakeCountdown({ unlocksAt: stake.unlocksAt, claimedAt: stake.claimedAt ?? null }, now),
  };
}

/**
 * Stake: one operation of the engine (`stake-open`, staking.kinds.ts) takes the amount and writes the stake, open. Its key
 * derives from the player's client key (`stake:<userId>:<key>`), as the stake's id does, so a double tap or a retry names the
 * same stake; the same key with other terms is refused rather than recorded against the first call's debit.
 */
export async function stake(userId: Id, input: StakeTerms & { idempotencyKey: string }, now: Date) {
  const offer = await enabledOffer(input.stakingCoinId);
  const terms = termsOf(offer, input, now);
  const stakeKey = scopedKey(userId, input.idempotencyKey);
  const record: StakeTermsRecord = {
    _id: stakeIdFor(stakeKey),
    user: objectId(userId),
    stakingCoin: offer._id,
    coin: offer.coin,
    amount: Number(terms.amount),
    duration: terms.duration,
    profitPercent: terms.percent,
    profit: Number(terms.profit),
    startedAt: terms.startedAt,
    unlocksAt: terms.unlocksAt,
    idempotencyKey: stakeKey,
  };
  // a mutation run's planted bug (lib/mutations.ts), never in production: the debit and the record as two unguarded
  // writes, the debit under a key no retry repeats
  if (planted('postings-outside-engine')) {
    const debit = {
      userId,
      coinId: offer.coin,
      amount: -terms.amount,
      reason: 'stake',
      refType: 'Stake',
      refId: String(record._id),
    } as const;
    await postEntry({ ...debit, idempotencyKey: `stake-unguarded:${randomUUID()}` });
    // where a kill of the stake's own operation would land: between the debit and the stake
    await faultPoint('ledger:after-apply', 'stake-open');
    await StakeModel.updateOne({ _id: record._id }, { $setOnInsert: { ...record, claimedAt: null } }, { upsert: true });
  } else await openStake(record);
  const opened = await StakeModel.findById(record._id).lean<StakeRow>();
  if (
    !opened ||
    String(opened.stakingCoin) !== String(offer._id) ||
    String(opened.coin) !== String(offer.coin) ||
    opened.amount !== record.amount ||
    opened.duration !== terms.duration
  )
    throw badInput({ idempotencyKey: 'This key was already used for a different stake' });
  const coin = await findCoin(offer.coin, { symbol: 1 });
  return presentStake(opened, coin?.symbol ?? '', now);
}

/**
 * Start-up, once: stakes a crash left half-done under the version before the engine carried them (`state: 'opening'`, or
 * claimed with `paidOut: false`) are finished by the engine's own operations under the same keys, and their flags removed.
 * A stake whose debit the balance no longer covers is removed, as that version's sweep did.
 */
export function finishStakesOfOlderVersion(): Promise<void> {
  return migrateOnce('stake-owed-flags', async () => {
    const owed = await StakeModel.collection
      .find<StakeTermsRecord & { state?: string; paidOut?: boolean; claimedAt: Date | null }>({
        $or: [{ state: 'opening' }, { paidOut: false }],
      })
      .toArray();
    for (const stake of owed) {
      if (stake.state === 'opening') {
        try {
          await openStake(stake);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          await StakeModel.deleteOne({ _id: stake._id, state: 'opening' });
          continue;
        }
      }
      if (stake.paidOut === false && stake.claimedAt) await claimStakeOnce(stake, stake.claimedAt);
      await StakeModel.collection.updateOne({ _id: stake._id }, { $unset: { state: '', paidOut: '' } });
    }
    return null;
  });
}

/**
 * What the player has locked in stakes not yet claimed, per coin id, in micro-units: the principal that left their balance
 * (a stake's record is written once its amount has left it). Reads the player's stakes by the (user, createdAt) index.
 */
export async function lockedInStakes(userId: Id): Promise<Map<string, bigint>> {
  const open = await StakeModel.find({ user: objectId(userId), claimedAt: null }, { coin: 1, amount: 1 }).lean();
  const locked = new Map<string, bigint>();
  for (const stake of open) locked.set(String(stake.coin), (locked.get(String(stake.coin)) ?? 0n) + BigInt(stake.amount));
  return locked;
}

/** The player's stakes, newest first, each with its countdown. */
export async function stakePositions(userId: Id, now: Date) {
  const stakes = await StakeModel.find({ user: objectId(userId) })
    .sort({ createdAt: -1, _id: -1 })
    .limit(200)
    .lean<StakeRow[]>();
  const coins = await findCoins([...new Set(stakes.map((s) => String(s.coin)))], { symbol: 1 });
  const symbols = new Map(coins.map((c) => [String(c._id), c.symbol]));
  return stakes.map((s) => presentStake(s, symbols.get(String(s.coin)) ?? '', now));
}

/**
 * Claim: only the owner, only once unlocked, only once. One operation of the engine per stake (`stake-claim`, keyed by the
 * stake) pays principal plus profit and marks it claimed, so simultaneous claims pay once and only the one that applied it
 * reports it; a crash in between is finished by a retry or the money recovery's sweep.
 */
export async function claimStake(userId: Id, stakeId: string, now: Date) {
  const found = await StakeModel.findOne({ _id: objectId(stakeId), user: objectId(userId) }).lean<StakeRow>();
  if (!found) throw new AppError('NOT_FOUND');
  if (found.claimedAt) throw new AppError('STAKE_CLAIMED');
  if (now < found.unlocksAt) throw new AppError('STAKE_LOCKED', { unlocksAt: found.unlocksAt.toISOString() });
  const { applied } = await claimStakeOnce(found, now);
  if (!applied) throw new AppError('STAKE_CLAIMED');
  const payout = BigInt(found.amount) + BigInt(found.profit);
  return { id: String(found._id), amount: fromMicros(found.amount), profit: fromMicros(found.profit), total: fromMicros(payout) };
}

/** How many staking offers are made in a coin. */
function countStakingOffersOf(coinId: string): Promise<number> {
  return StakingCoinModel.countDocuments({ coin: coinId });
}

/** Deletes a staking offer no stake was made under: unclaimed positions are paid from their offer, so disable it instead. */
export async function deleteStakingCoin(id: string): Promise<void> {
  const stakes = await StakeModel.countDocuments({ stakingCoin: id });
  if (stakes) throw new AppError('IN_USE', { uses: `${stakes} stake${stakes === 1 ? '' : 's'} (disable it instead)` });
  await StakingCoinModel.deleteOne({ _id: id });
}

/** How the principal locked in stakes changed per coin (micro-units) in [from, to): opened stakes add, claimed ones take away. */
export async function lockedStakeChangeBetween(from: Date, to: Date) {
  const [opened, claimed] = await Promise.all([
    StakeModel.aggregate<{ _id: unknown; total: number }>([
      { $match: { startedAt: { $gte: from, $lt: to } } },
      { $group: { _id: '$coin', total: { $sum: '$amount' } } },
    ]),
    StakeModel.aggregate<{ _id: unknown; total: number }>([
      { $match: { claimedAt: { $gte: from, $lt: to } } },
      { $group: { _id: '$coin', total: { $sum: '$amount' } } },
    ]),
  ]);
  return [...opened, ...claimed.map((row) => ({ _id: row._id, total: -row.total }))];
}

registerCoinUse({ order: 3, count: countStakingOffersOf, describe: (count) => plural(count, 'staking coin') });

/** Inserts staking offers and stakes as given (the demo seed); a stake's coins are locked by the caller's ledger entry. */
export const insertStakingOffers = (records: NewRecord<typeof StakingCoinModel>[]) => StakingCoinModel.insertMany(records);
export const insertStakes = (records: NewRecord<typeof StakeModel>[]) => StakeModel.insertMany(records);

/** An offer's waiting terms as the console and the audit read them: the maximum as a decimal. */
const presentOfferChange = (set: Record<string, unknown>) => ({ ...set, maxAmount: fromMicros(BigInt(set.maxAmount as number)) });

export const offerChanges: ChangeTarget = {
  model: StakingCoinModel,
  resource: 'staking-coins',
  what: 'this staking offer',
  present: presentOfferChange,
};
