import { fromMicros } from '@gift/shared';
import { textFor } from '../../lib/playerLanguage';
import type { ChangeTarget } from '../accounts/waitingChanges.service';
import { isValidObjectId, type ProjectionType, type Types } from 'mongoose';
import { objectId, type Id } from '../../db/ids';
import { badInput } from '../../lib/errors';
import type { ConsoleRecord, NewRecord } from '../../db/schemaKit';
import { GiftCoinModel, onCoinWrite, type GiftCoin } from './giftCoin.model';
import { shortLived } from '../../db/shortLived';
import { saveCoinIdentity } from './coinIdentity';

/*
 * "GiftCoin" and "gift-coins" (the model, its collection, the console resource and permission) name every coin of the
 * app, TON and in-app ones too: those names stay, as stored data and the console rely on them. New code says "coin".
 */

type Fields = ProjectionType<GiftCoin>;
/** GET /api/admin/gift-coins: a coin as the console lists and edits it. */
export type GiftCoinRecord = ConsoleRecord<
  typeof GiftCoinModel,
  'minWithdraw' | 'payoutApprovalAbove' | 'payoutDailyCap' | 'giftApprovalAbove' | 'operatorDailyLimit'
>;

/** A coin as read: the fields asked for are there (the others are not, whatever the type says). */
export type CoinRow = GiftCoin & { _id: Types.ObjectId };

/** A form's coin field must name a gift coin that exists; the answer names the field. */
export async function requireGiftCoin(field: string, id: Id): Promise<void> {
  if (!isValidObjectId(id) || !(await GiftCoinModel.exists({ _id: id }))) throw badInput({ [field]: 'Choose an existing gift coin' });
}

/** The collection other modules join on (`$lookup`) to name a document's coin. */
/** A coin's name in the player's language: the Persian one when written, else the English. */
export function coinNameFor(coin: { name: string; fa?: { name?: string | null } | null }, language: string | undefined): string {
  return textFor(language)(coin.name, coin.fa?.name);
}

export const GIFT_COINS_COLLECTION = GiftCoinModel.collection.name;

/** One coin with the fields asked for, or null when no coin has that id. */
export function findCoin(id: Id, fields?: Fields) {
  return GiftCoinModel.findById(id, fields).lean<CoinRow>();
}

/** The coins among these ids that exist, in no particular order. */
export function findCoins(ids: Id[], fields?: Fields, only: { enabled?: true } = {}) {
  return GiftCoinModel.find({ _id: { $in: ids.map(objectId) }, ...only }, fields).lean<CoinRow[]>();
}

/** Every coin in the app's order (the operators' `order`, then age), optionally only enabled or withdrawable ones. */
export function listCoins(fields: Fields, only: { enabled?: true; withdrawEnabled?: true } = {}) {
  return GiftCoinModel.find(only, fields).sort({ order: 1, _id: 1 }).lean<CoinRow[]>();
}

/** What a player's screens show of a coin. */
const DISPLAY_FIELDS = { name: 1, fa: 1, symbol: 1, icon: 1, decimals: 1, usdPrice: 1, enabled: 1, order: 1 } as const;
const coinsCopy = shortLived(() => listCoins(DISPLAY_FIELDS), 3_000);
onCoinWrite(coinsCopy.forget);

/**
 * Every coin, in the app's order, with what a player's screens show of it (name, symbol, icon, decimals, USD price, enabled):
 * a copy kept 3 s and forgotten at once after a coin's write in this instance, so another instance shows a change at most 3 s
 * late. For display only (home's balances, a milestone's symbol): a money decision (withdrawals, brakes) reads the coin itself.
 * Shared by every caller: read it, never change it.
 */
export const recentCoins = coinsCopy.get;

export async function giftCoinIsEnabled(id: Id): Promise<boolean> {
  return !!(await GiftCoinModel.exists({ _id: id, enabled: true }));
}

/** Whether any coin exists: the demo seed fills only a database without one. */
export async function anyCoinExists(): Promise<boolean> {
  return !!(await GiftCoinModel.exists({}));
}

/** Inserts coins as given, in order (the demo seed; operators create them through the console's resource). */
export function insertCoins(records: NewRecord<typeof GiftCoinModel>[]) {
  return GiftCoinModel.insertMany(records);
}

const LIMITS = new Set(['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit', 'payoutDailyCap']);

/** A coin's waiting change, as the console and the audit read it: amounts as decimals. */
const presentCoinChange = (set: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(set).map(([field, value]) => [field, LIMITS.has(field) ? fromMicros(BigInt(value as number)) : value]));

/** A coin's looser brakes, withdrawals turned on or another place on TON, decided by a second operator. */
export const coinChanges: ChangeTarget = {
  model: GiftCoinModel,
  resource: 'gift-coins',
  what: 'this coin change',
  present: presentCoinChange,
  // another place on TON is held for this coin (one coin per jetton master, one native TON coin) before it is written
  apply: async (id, changeId, update) => {
    const coin = await GiftCoinModel.findById(id, { symbol: 1, network: 1, jettonMaster: 1, withdrawEnabled: 1 }).lean();
    if (!coin) return false;
    const identity = {
      symbol: coin.symbol,
      network: (update.network ?? coin.network) as 'ton' | 'jetton',
      jettonMaster: typeof update.jettonMaster === 'string' ? update.jettonMaster : (coin.jettonMaster ?? ''),
    };
    // the coin as it would be: a jetton paid out needs its master (cleared, perhaps, since the change was asked)
    if (identity.network === 'jetton' && !identity.jettonMaster && (update.withdrawEnabled ?? coin.withdrawEnabled) === true)
      throw badInput({ jettonMaster: 'A jetton needs its master address before withdrawals can be enabled' });
    try {
      return await saveCoinIdentity(identity, String(id), async () => {
        const applied = await GiftCoinModel.updateOne({ _id: id, 'waitingChange.id': changeId }, { $set: update }, { runValidators: true });
        // decided meanwhile: stop before the keys the coin still speaks for are let go (the new one held is stale, and taken over)
        if (applied.modifiedCount !== 1) throw new ChangeGone();
        return true;
      });
    } catch (error) {
      if (error instanceof ChangeGone) return false;
      throw error;
    }
  },
};

/** The change a coin's approval was applying was decided by another operator first. */
class ChangeGone extends Error {}
