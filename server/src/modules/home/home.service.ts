import { fromMicros, MONEY_SCALE } from '@gift/shared';
import { type Id } from '../../db/ids';
import { textFor } from '../../lib/playerLanguage';
import { coinNameFor, recentCoins } from '../coins/giftCoins.service';
import { balancesOf } from '../ledger/ledger.service';
import { playerMissions, streakFor } from '../missions/missions.service';
import { homeContent, type ContentRow } from '../content/homeContent.service';
import { recentAppConfig } from '../config/config.service';
import { lockedInStakes } from '../staking/staking.service';

/**
 * The home screen of a player: covers, partners, categories with their progress, the ⭐ missions
 * still to do, and today's daily missions with the streak. Three queries, sent together (one round trip): the content union, the enabled missions
 * with their coins, and this player's progress.
 */
export async function homeFor(player: Parameters<typeof streakFor>[0] & { _id: Id; language?: string }, now: Date) {
  // the App Config for the day and the streak's milestones, shown only: its short-lived copy (no query while it lives)
  const config = recentAppConfig();
  const [content, missions, streak] = await Promise.all([
    homeContent(),
    playerMissions(player, now, {}, config),
    streakFor(player, now, config),
  ]);
  // what an operator wrote, in the player's language (Persian when written, else English)
  const text = textFor(player.language);
  const progress = new Map<string, { total: number; done: number }>();
  for (const mission of missions) {
    const counts = progress.get(mission.categoryId) ?? { total: 0, done: 0 };
    counts.total += 1;
    if (mission.status === 'done') counts.done += 1;
    progress.set(mission.categoryId, counts);
  }
  const of = (kind: ContentRow['kind']) => content.filter((row) => row.kind === kind);
  return {
    covers: of('cover').map((c) => ({
      id: String(c._id),
      title: text(c.title, c.fa?.title),
      image: text(c.image, c.fa?.image),
      link: c.link ?? '',
    })),
    partners: of('partner').map((p) => ({ id: String(p._id), name: text(p.name, p.fa?.name), image: p.image ?? '', link: p.link ?? '' })),
    categories: of('category').map((c) => ({
      id: String(c._id),
      title: text(c.title, c.fa?.title),
      description: text(c.description, c.fa?.description),
      image: c.image ?? '',
      missionsTotal: progress.get(String(c._id))?.total ?? 0,
      missionsDone: progress.get(String(c._id))?.done ?? 0,
    })),
    starMissions: missions.filter((m) => m.mustDone && m.status !== 'done'),
    /** Today's daily missions, done or not, and the streak they build. */
    daily: missions.filter((m) => m.repeat === 'daily'),
    streak,
  };
}

const PRICE_PATTERN = /^\d{1,12}(\.\d{1,18})?$/;

/** balance × USD price in dollars, rounded half up to the cent, computed on integers only. */
export function usdValue(balanceMicros: bigint, usdPrice: string): string {
  const [whole = '0', fraction = ''] = usdPrice.split('.');
  const denominator = MONEY_SCALE * 10n ** BigInt(fraction.length);
  const numerator = balanceMicros * BigInt(whole + fraction) * 100n;
  const cents = (2n * numerator + denominator) / (2n * denominator);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/**
 * Every enabled coin with the player's balance, what they have locked in stakes and the two together, and, when the coin
 * has a price, the value in USD of all they hold of it (balance and stakes).
 */
export async function currencyFor(userId: Id, language?: string) {
  // the coins are shown only: their short-lived copy (no query while it lives); the balances are read now
  const [coins, balances, staked] = await Promise.all([recentCoins(), balancesOf(userId), lockedInStakes(userId)]);
  return coins
    .filter((coin) => coin.enabled)
    .map((coin) => {
      const balance = balances.get(String(coin._id)) ?? 0n;
      const inStakes = staked.get(String(coin._id)) ?? 0n;
      const usdPrice = coin.usdPrice && PRICE_PATTERN.test(coin.usdPrice) ? coin.usdPrice : null;
      return {
        id: String(coin._id),
        name: coinNameFor(coin, language),
        symbol: coin.symbol,
        icon: coin.icon ?? '',
        decimals: coin.decimals,
        usdPrice,
        balance: fromMicros(balance),
        staked: fromMicros(inStakes),
        total: fromMicros(balance + inStakes),
        value: usdPrice ? usdValue(balance + inStakes, usdPrice) : null,
      };
    });
}
