import { Address } from '@ton/core';
import type { GiftCoinInput } from '@gift/shared';
import { Types } from 'mongoose';
import { badInput } from '../../lib/errors';
import { CoinKeyModel, GiftCoinModel } from './giftCoin.model';
import { upsertWithRetry } from '../../db/mongoErrors';

type Identity = Pick<GiftCoinInput, 'symbol' | 'network' | 'jettonMaster'>;

/** A jetton master's one spelling (raw, `0:…`), whichever form was typed; a bad checksum or form is the field's error. */
function rawMaster(master: string): string {
  try {
    return Address.parse(master).toRawString();
  } catch {
    throw badInput({ jettonMaster: 'This is not a valid TON address: check it in a blockchain explorer' });
  }
}

/** What makes a coin itself: its symbol whatever the case, and where it lives on TON (one native TON; a jetton master once). */
function coinKeys(coin: Identity): { symbolKey: string; chainKey: string | null } {
  const chainKey = coin.network === 'ton' ? 'ton' : coin.jettonMaster ? `jetton:${rawMaster(coin.jettonMaster)}` : null;
  return { symbolKey: coin.symbol.trim().toUpperCase(), chainKey };
}

/**
 * Refuses a coin that would repeat another's symbol (in any case), a second native TON, or a jetton master another coin has,
 * naming the field and the coin it clashes with. Coins are a handful, read whole; coins saved before these keys existed
 * are compared by the same rule.
 */
async function refuseClashes(keys: ReturnType<typeof coinKeys>, exceptId?: string): Promise<void> {
  const others = await GiftCoinModel.find(exceptId ? { _id: { $ne: exceptId } } : {}, {
    name: 1,
    symbol: 1,
    network: 1,
    jettonMaster: 1,
  }).lean();
  const errors: Record<string, string> = {};
  for (const other of others) {
    const network = other.network === 'ton' ? 'ton' : 'jetton';
    const theirs = coinKeys({ symbol: other.symbol, network, jettonMaster: safeMaster(other.jettonMaster) });
    if (theirs.symbolKey === keys.symbolKey)
      errors.symbol ??= `${other.name} already has the symbol ${other.symbol}: symbols are compared without case`;
    if (keys.chainKey && theirs.chainKey === keys.chainKey)
      if (keys.chainKey === 'ton') errors.network ??= `${other.name} is already the native TON coin: there is one`;
      else errors.jettonMaster ??= `${other.name} already has this jetton master`;
  }
  if (Object.keys(errors).length) throw badInput(errors);
}

/** A stored master as it was saved: one that does not parse is compared as nothing (it was saved before the check). */
function safeMaster(master: string | null | undefined): string {
  if (!master) return '';
  try {
    Address.parse(master);
    return master;
  } catch {
    return '';
  }
}

type Keys = ReturnType<typeof coinKeys>;
const heldKeys = (keys: Keys) => [`symbol:${keys.symbolKey}`, ...(keys.chainKey ? [`chain:${keys.chainKey}`] : [])];

/** How long a hold whose coin is not written yet stays its save's: the save is between its hold and its write. */
const UNWRITTEN_HOLD_MS = 30_000;

/**
 * Whether a hold still speaks for its coin: the coin exists and still has that key, or it does not exist yet and the hold
 * is recent (a save still writing it; only one older than that was left by a save killed in between).
 */
async function holdIsLive(key: string, held: { coin: Types.ObjectId; updatedAt?: Date }): Promise<boolean> {
  const coin = await GiftCoinModel.findById(held.coin, { symbol: 1, network: 1, jettonMaster: 1 }).lean();
  if (!coin) return Date.now() - (held.updatedAt?.getTime() ?? 0) < UNWRITTEN_HOLD_MS;
  const network = coin.network === 'ton' ? 'ton' : 'jetton';
  return heldKeys(coinKeys({ symbol: coin.symbol, network, jettonMaster: safeMaster(coin.jettonMaster) })).includes(key);
}

/** Takes `key` for the coin: one conditional upsert, or taking over a stale hold; false when a live coin holds it. */
async function hold(key: string, coinId: Types.ObjectId): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // not timestamped by mongoose, which would date a hold found here as touched now: its age is what tells a save still
    // writing its coin from one a crash left
    const now = new Date();
    const held = await upsertWithRetry(() =>
      CoinKeyModel.findOneAndUpdate(
        { key },
        { $setOnInsert: { key, coin: coinId, createdAt: now, updatedAt: now } },
        { upsert: true, returnDocument: 'after', timestamps: false },
      ).lean(),
    );
    if (String(held.coin) === String(coinId)) return true;
    if (await holdIsLive(key, held)) return false;
    const taken = await CoinKeyModel.findOneAndUpdate(
      { key, coin: held.coin },
      { $set: { coin: coinId } },
      { returnDocument: 'after' },
    ).lean();
    if (taken) return true;
  }
  return false;
}

/**
 * Writes a coin after refusing clashes, holding its symbol and its place on TON first: of two saves racing to the same
 * key one holds it and the other reads the same field message as a save that came later. A save killed between the hold
 * and the write leaves a hold that no coin speaks for, which the next save of that key takes over; keys an edit gave up
 * are let go after it.
 */
export async function saveCoinIdentity<T>(
  coin: Identity,
  exceptId: string | undefined,
  write: (keys: Keys, id: Types.ObjectId) => Promise<T>,
): Promise<T> {
  const keys = coinKeys(coin);
  await refuseClashes(keys, exceptId);
  const id = exceptId ? new Types.ObjectId(exceptId) : new Types.ObjectId();
  const wanted = heldKeys(keys);
  const taken: string[] = [];
  for (const key of wanted) {
    if (await hold(key, id)) {
      taken.push(key);
      continue;
    }
    // a save that won the race: its coin is there now, and names the field
    await CoinKeyModel.deleteMany({ key: { $in: taken }, coin: id });
    await refuseClashes(keys, exceptId);
    throw badInput({
      [key.startsWith('symbol:') ? 'symbol' : keys.chainKey === 'ton' ? 'network' : 'jettonMaster']:
        'Another coin was just saved with this: look again',
    });
  }
  const written = await write(keys, id);
  await CoinKeyModel.deleteMany({ coin: id, key: { $nin: wanted } });
  return written;
}
