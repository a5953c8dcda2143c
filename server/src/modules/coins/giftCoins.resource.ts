import { giftCoinInput, suggestedCoinBrakes, toMicros, type CoinBrakes, type GiftCoinInput } from '@gift/shared';
import type { OperatorContext } from '../../rest/adminAuth';
import { orderedResource } from '../../rest/resource';
import { askChange, changeRoutes } from '../accounts/waitingChanges.service';
import { saveCoinIdentity } from './coinIdentity';
import { GiftCoinModel } from './giftCoin.model';
import { coinChanges, presentBrakes } from './giftCoins.service';
import { deleteGiftCoin } from './giftCoinDeletion.service';

const BRAKES = ['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit'] as const;
type Brake = (typeof BRAKES)[number];

/** The coin's brakes as typed, each one left out replaced by the suggested amount for its price. */
function brakesOrSuggested(input: GiftCoinInput): CoinBrakes {
  const suggested = suggestedCoinBrakes({ usdPrice: input.usdPrice });
  return Object.fromEntries(BRAKES.map((field) => [field, input[field] ?? suggested[field]])) as unknown as CoinBrakes;
}

/** The fields the body carried (the brakes are optional): an absent one is not set. */
const withoutAbsent = (input: GiftCoinInput) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

/** Whether `wanted` (micro-units) is a looser brake than `current`: "never" (0) where it was on, or a higher amount. */
const looser = (wanted: bigint, current: bigint) => current > 0n && (wanted === 0n || wanted > current);

/**
 * Splits the brakes an operator typed against the ones in force (`current`, micro-units): a looser one (0 where it was on, or
 * higher) is taken out of `brakes` and returned as the change that waits for a second operator; a tighter one applies at once.
 */
function holdLooserBrakes(brakes: Partial<Record<Brake, string>>, current: Record<Brake, bigint>) {
  const held: Record<string, number> = {};
  for (const field of BRAKES) {
    const typed = brakes[field];
    if (typed === undefined) continue;
    const wanted = toMicros(typed);
    if (!looser(wanted, current[field])) continue;
    held[field] = Number(wanted);
    delete brakes[field];
  }
  return held;
}

const storedBrakes = (coin: Partial<Record<Brake, number | null>>) =>
  Object.fromEntries(BRAKES.map((field) => [field, BigInt(coin[field] ?? 0)])) as Record<Brake, bigint>;

/** The coin as the console reads it, its waiting brake change in decimals. */
function presentCoin(doc: unknown) {
  const coin = (doc as { toJSON: () => Record<string, unknown> }).toJSON();
  const waiting = coin.waitingChange as { set: Record<string, unknown>; requestedBy: unknown } | null | undefined;
  return {
    ...coin,
    waitingChange: waiting ? { ...waiting, requestedBy: String(waiting.requestedBy), set: presentBrakes(waiting.set) } : null,
  };
}

/**
 * The coins of the app; one that anyone holds or anything pays in cannot be deleted (disable it instead). A coin's symbol is
 * unique whatever its case, there is one native TON coin, and a jetton master belongs to one coin. Loosening a brake (0,
 * "never", where it was on, or a higher amount) waits for a second operator; tightening one applies at once.
 */
const resource = orderedResource('gift-coins', GiftCoinModel, giftCoinInput, {
  search: ['name', 'symbol'],
  remove: { run: deleteGiftCoin },
  filters: { network: 'equals', withdrawEnabled: 'boolean' },
  sortable: ['network', 'withdrawEnabled'],
});

async function createCoin(input: GiftCoinInput, { operator }: OperatorContext) {
  const suggested = suggestedCoinBrakes({ usdPrice: input.usdPrice });
  const brakes: Partial<Record<Brake, string>> = brakesOrSuggested(input);
  // a new coin starts at the suggested brakes: one typed looser than those waits like any loosening
  const held = holdLooserBrakes(brakes, storedBrakes(Object.fromEntries(BRAKES.map((f) => [f, Number(toMicros(suggested[f]))]))));
  const waitingChange = Object.keys(held).length ? askChange(held, operator, new Date()) : null;
  return saveCoinIdentity(input, undefined, (_keys, _id) =>
    GiftCoinModel.create({ ...input, ...suggested, ...brakes, waitingChange, _id }),
  );
}

async function updateCoin(id: string, input: GiftCoinInput, { operator }: OperatorContext) {
  const live = await GiftCoinModel.findById(id, { giftApprovalAbove: 1, payoutApprovalAbove: 1, operatorDailyLimit: 1 }).lean<
    Partial<Record<Brake, number | null>>
  >();
  const fields = withoutAbsent(input) as Partial<GiftCoinInput>;
  const held = live ? holdLooserBrakes(fields, storedBrakes(live)) : {};
  // a brake set to another amount than the one in force replaces what waited; an edit of anything else keeps it
  const changed = live && BRAKES.some((f) => fields[f] !== undefined && toMicros(fields[f]) !== BigInt(live[f] ?? 0));
  const waiting = Object.keys(held).length
    ? { waitingChange: askChange(held, operator, new Date()) }
    : changed
      ? { waitingChange: null }
      : {};
  return saveCoinIdentity(input, id, () =>
    GiftCoinModel.findByIdAndUpdate(id, { $set: { ...fields, ...waiting } }, { returnDocument: 'after', runValidators: true }),
  );
}

export const giftCoinsResource: typeof resource = {
  ...resource,
  record: { present: presentCoin },
  create: { schema: giftCoinInput, run: createCoin },
  update: { schema: giftCoinInput, run: updateCoin },
  extraRoutes: (router) => changeRoutes(router, coinChanges, async (id) => presentCoin(await GiftCoinModel.findById(id))),
};
