import { microsToStored, percentOf, STAKING_DURATION_KEYS, stakingCoinInput, toMicros, type StakingCoinInput } from '@gift/shared';
import type { OperatorContext } from '../../http/adminAuth';
import type { ResourceDefinition } from '../../http/resource';
import { changeRoutes } from '../accounts/changeDecisions.service';
import { createRequested, finishRequests, requestsOn, saveAsRead } from '../accounts/changeRequests.service';
import { askChange, presentWithChange, type WaitingChange } from '../accounts/waitingChanges.service';
import { aboveThreshold } from '../coins/coinBrakes.service';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { StakingCoinModel } from './staking.models';
import { deleteStakingCoin, offerChanges } from './staking.service';

const asStored = (input: StakingCoinInput) => ({
  ...input,
  minAmount: microsToStored(toMicros(input.minAmount)),
  maxAmount: microsToStored(toMicros(input.maxAmount)),
});

/** What decides what one stake can earn: the coin, the largest stake, each term's percent, and whether it is offered. */
interface Terms {
  coin: unknown;
  maxAmount: number;
  profits: Partial<Record<(typeof STAKING_DURATION_KEYS)[number], string>>;
  enabled: boolean;
}

const percent = (value: string | undefined) => (value ? toMicros(value) : 0n);

/** The most one stake can earn: the largest stake at the best term's percent (micro-units). */
const topProfit = (terms: Terms) =>
  STAKING_DURATION_KEYS.reduce((top, key) => {
    const profit = terms.profits[key] ? percentOf(BigInt(terms.maxAmount), terms.profits[key]) : 0n;
    return profit > top ? profit : top;
  }, 0n);

/** Whether `wanted` lets a stake earn more than `live` does: offered where it was not, another coin, a higher maximum or percent. */
function raises(wanted: Terms, live: Terms | null): boolean {
  if (!wanted.enabled) return false;
  if (!live?.enabled || String(live.coin) !== String(wanted.coin) || wanted.maxAmount > live.maxAmount) return true;
  return STAKING_DURATION_KEYS.some((key) => percent(wanted.profits[key]) > percent(live.profits[key]));
}

const sameTerms = (a: Terms, b: Terms) =>
  String(a.coin) === String(b.coin) &&
  a.maxAmount === b.maxAmount &&
  a.enabled === b.enabled &&
  STAKING_DURATION_KEYS.every((key) => percent(a.profits[key]) === percent(b.profits[key]));

const termsOf = (offer: Terms): Terms => ({
  coin: String(offer.coin),
  maxAmount: offer.maxAmount,
  profits: Object.fromEntries(STAKING_DURATION_KEYS.map((key) => [key, offer.profits?.[key] ?? ''])),
  enabled: offer.enabled,
});

/**
 * What a save stores of an offer's terms, given what it asks (`wanted`) and what is live (null for a new offer): terms that let
 * a stake earn more, when the largest stake's profit is above the coin's threshold, wait for a second operator with the live
 * terms kept (a new offer is saved not offered); other terms apply and drop what waited; the same terms keep it.
 */
async function termsToStore(wanted: Terms, live: Terms | null, context: OperatorContext): Promise<Record<string, unknown>> {
  if (live && sameTerms(wanted, live)) return {};
  if (!raises(wanted, live) || !(await aboveThreshold(String(wanted.coin), topProfit(wanted)))) return { waitingChange: null };
  const waitingChange = askChange(termsOf(wanted) as unknown as Record<string, unknown>, context.operator, new Date());
  return live ? { ...termsOf(live), waitingChange } : { enabled: false, waitingChange };
}

/** The live terms as a save read them, which it writes back when it holds others (a missing percent read as none). */
const liveTermsFilter = (live: Terms) => ({
  coin: live.coin,
  maxAmount: live.maxAmount,
  enabled: live.enabled,
  ...Object.fromEntries(STAKING_DURATION_KEYS.map((key) => [`profits.${key}`, live.profits?.[key] ?? null])),
});

/** The offer as the console reads it, its waiting terms in decimals. */
const presentOffer = (doc: unknown) => presentWithChange(offerChanges, doc);

/** Staking offers as where a save holds terms for a second operator (accounts/changeRequests.service.ts). */
export const offerRequests = requestsOn(offerChanges, async (id) => {
  const offer = await StakingCoinModel.findById(id);
  return offer && presentOffer(offer);
});

/**
 * Staking offers: one coin each, its bounds and a profit percent per term. Letting a stake earn more (offering it, another
 * coin, a higher maximum or percent) waits for a second operator when the largest stake's profit is above the coin's threshold.
 */
export const stakingCoinsResource: ResourceDefinition<typeof stakingCoinInput> = {
  name: 'staking-coins',
  model: StakingCoinModel,
  record: { present: presentOffer },
  list: { filters: { coin: 'objectId', enabled: 'boolean' }, sortable: ['order', 'coin', 'enabled'] },
  create: {
    schema: stakingCoinInput,
    run: async (input, context) => {
      await requireGiftCoin('coin', input.coin);
      const stored = asStored(input);
      const terms = await termsToStore(stored, null, context);
      // an offer created with its terms held is a request of the money engine, which audits the creation once
      const held = { operator: context.operator, held: terms.waitingChange };
      return createRequested(offerRequests, held, (_id) => StakingCoinModel.create({ ...stored, ...terms, _id }), context.audited);
    },
  },
  update: {
    schema: stakingCoinInput,
    run: async (id, input, context) => {
      await requireGiftCoin('coin', input.coin);
      const stored = asStored(input);
      const live = await StakingCoinModel.findById(id, {
        coin: 1,
        maxAmount: 1,
        profits: 1,
        enabled: 1,
        waitingChange: 1,
        lastChangeDecision: 1,
      }).lean<Terms & { waitingChange?: WaitingChange | null; lastChangeDecision?: { id: string } | null }>();
      // the save that asked for the terms waiting now is audited first, should a crash have cut it off
      if (live?.waitingChange) await finishRequests(offerRequests, [live.waitingChange.id]);
      const terms = await termsToStore(stored, live && termsOf(live), context);
      // terms held for a second operator are a request of the money engine, which audits the edit once
      // only on the offer as read, and as the operator's form showed it: the same waiting terms and last decision, and the live
      // terms it writes back (409 if not)
      return saveAsRead(
        offerRequests,
        { id, read: live, held: terms.waitingChange, brakeState: context.brakeState },
        {
          operator: context.operator,
          update: { $set: { ...stored, ...terms } },
          live: live && terms.waitingChange ? liveTermsFilter(live) : {},
        },
        context.audited,
      );
    },
  },
  remove: { run: deleteStakingCoin },
  extraRoutes: (router) => changeRoutes(router, offerChanges, async (id) => presentOffer(await StakingCoinModel.findById(id))),
};
