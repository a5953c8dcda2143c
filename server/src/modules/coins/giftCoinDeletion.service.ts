import { AppError } from '../../lib/errors';
import { CoinKeyModel, GiftCoinModel } from './giftCoin.model';

/** Something that points at coins: how many of it point at one, and how that reads ('2 balances'). */
export interface CoinUse {
  /** Where it comes in the refusal's list. */
  order: number;
  count: (coinId: string) => Promise<number>;
  describe: (count: number) => string;
}

const coinUses: CoinUse[] = [];

/**
 * A module whose records point at coins (balances, missions, staking offers, the App Config) registers here,
 * so coins can refuse to delete a coin in use without importing any of them.
 */
export function registerCoinUse(use: CoinUse): void {
  coinUses.push(use);
  coinUses.sort((a, b) => a.order - b.order);
}

/** What still points at a coin, in words ('2 balances and 1 mission'); empty when nothing does. */
async function giftCoinUses(id: string): Promise<string> {
  const counts = await Promise.all(coinUses.map((use) => use.count(id)));
  const uses = coinUses.flatMap((use, i) => (counts[i] ? [use.describe(counts[i])] : []));
  return uses.length > 1 ? `${uses.slice(0, -1).join(', ')} and ${uses.at(-1)}` : (uses[0] ?? '');
}

/** Deletes a coin nothing points at; one that anyone holds or anything pays in stays (disable it instead). */
export async function deleteGiftCoin(id: string): Promise<void> {
  const uses = await giftCoinUses(id);
  if (uses) throw new AppError('IN_USE', { uses });
  await GiftCoinModel.deleteOne({ _id: id });
  // its symbol and its place on TON are free again (a crash before this leaves holds no coin speaks for, taken over later)
  await CoinKeyModel.deleteMany({ coin: id });
}

/** '1 mission', '2 missions'. */
export const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
