import type { BoostKind } from '@gift/shared';
import type { Operator } from '../audit/audit.service';
import { askChange, type ChangeTarget } from '../accounts/waitingChanges.service';
import { aboveThreshold } from '../coins/coinBrakes.service';
import { getAppConfig } from '../config/config.service';
import { StarOfferModel } from './shop.models';

/**
 * The Stars shop's money brake. A mining boost creates coins: a multiplier of p % adds (p − 100) % of a session's amount, an
 * extra session adds a whole one (a streak freeze none). Stars are cheap (100 Stars is one or two US dollars), so an offer
 * that sells many coins for few Stars is a gift in disguise: what a player gets for 100 Stars through an offer (or for one
 * purchase, if it costs more) is weighed like a gift, against the mining coin's threshold. A change that lets Stars buy more
 * (put on sale, a higher multiplier, a lower price, a richer kind) and weighs above the threshold waits for a second
 * operator with the live terms kept; a new offer is saved off sale. While mining has no coin or amount the weight is unknown,
 * so every such change waits.
 */

/** The Stars a player's purchases are weighed over: about what a player spends on a handful of boosts. */
const WEIGHED_STARS = 100;

/** What decides the coins an offer creates: its kind, its price, its multiplier, and whether it is on sale. */
interface Terms {
  kind: BoostKind;
  stars: number;
  multiplierPercent: number | null;
  enabled: boolean;
}

export const termsOf = (offer: { kind: BoostKind; stars: number; multiplierPercent?: number | null; enabled?: boolean | null }): Terms => ({
  kind: offer.kind,
  stars: offer.stars,
  multiplierPercent: offer.kind === 'multiplier' ? (offer.multiplierPercent ?? null) : null,
  enabled: offer.enabled ?? true,
});

/** The percent of a session's amount one purchase adds. */
function sessionPercent(terms: Terms): bigint {
  if (!terms.enabled) return 0n;
  if (terms.kind === 'extraSession') return 100n;
  if (terms.kind === 'multiplier') return BigInt(Math.max(0, (terms.multiplierPercent ?? 100) - 100));
  return 0n;
}

/** The offer's weight as a fraction of a session's amount: what WEIGHED_STARS Stars buy, or one purchase if it costs more. */
function weight(terms: Terms): { percent: bigint; per: bigint } {
  return { percent: sessionPercent(terms) * BigInt(Math.max(terms.stars, WEIGHED_STARS)), per: BigInt(terms.stars) };
}

/** Whether `wanted` lets Stars buy more coins than `live` does (exact: the two fractions cross-multiplied). */
function raises(wanted: Terms, live: Terms | null): boolean {
  const a = weight(wanted);
  if (!live) return a.percent > 0n;
  const b = weight(live);
  return a.percent * b.per > b.percent * a.per;
}

const sameTerms = (a: Terms, b: Terms) =>
  a.kind === b.kind && a.stars === b.stars && a.multiplierPercent === b.multiplierPercent && a.enabled === b.enabled;

/** Whether the offer's weight, in the mining coin at App Config's amount, is above the coin's threshold (unknown: above). */
async function aboveBrake(terms: Terms): Promise<boolean> {
  const config = await getAppConfig();
  const session = BigInt((config.earnAmount as number | undefined) ?? 0);
  if (!config.miningCoin || session <= 0n) return true;
  const { percent, per } = weight(terms);
  return aboveThreshold(String(config.miningCoin), (session * percent) / (100n * per));
}

/**
 * What a save stores of an offer's terms, given what it asks (`wanted`) and what is live (null for a new offer): terms that let
 * Stars buy more, above the brake, wait with the live terms kept (a new offer is saved off sale); other terms apply and drop
 * what waited; the same terms keep it.
 */
export async function offerTermsToStore(wanted: Terms, live: Terms | null, operator: Operator): Promise<Record<string, unknown>> {
  const asked = { ...wanted };
  if (live && sameTerms(asked, live)) return asked;
  if (!raises(asked, live) || !(await aboveBrake(asked))) return { ...asked, waitingChange: null };
  const waitingChange = askChange({ ...asked }, operator, new Date());
  return live ? { ...live, waitingChange } : { ...asked, enabled: false, waitingChange };
}

/** Where a shop offer's change waits for its decision (accounts/changeDecisions.service.ts). */
export const starOfferChanges: ChangeTarget = {
  model: StarOfferModel,
  resource: 'star-offers',
  what: 'this shop offer',
  present: (set) => set,
};
