import { giftCoinInput, suggestedCoinBrakes, toMicros, type CoinBrakes, type GiftCoinInput } from '@gift/shared';
import type { OperatorContext } from '../../http/adminAuth';
import { orderedResource } from '../../http/resource';
import { changeRoutes } from '../accounts/changeDecisions.service';
import { createRequested, finishRequests, requestsOn, saveAsRead } from '../accounts/changeRequests.service';
import { askChange, presentWithChange, type ChangeDecision, type WaitingChange } from '../accounts/waitingChanges.service';
import { saveCoinIdentity } from './coinIdentity';
import { GiftCoinModel } from './giftCoin.model';
import { coinChanges } from './giftCoins.service';
import { deleteGiftCoin } from './giftCoinDeletion.service';

const BRAKES = ['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit'] as const;
/** Amounts where 0 is the loosest (never, no limit, no cap) and a higher one is looser. */
const LIMITS = [...BRAKES, 'payoutDailyCap'] as const;
type Limit = (typeof LIMITS)[number];
/** Where the coin lives on TON: what a payout of one balance sends. */
const CHAIN = ['network', 'jettonMaster', 'decimals'] as const;

/** The coin's brakes as typed, each one left out replaced by the suggested amount for its price. */
function brakesOrSuggested(input: GiftCoinInput): CoinBrakes {
  const suggested = suggestedCoinBrakes({ usdPrice: input.usdPrice });
  return Object.fromEntries(BRAKES.map((field) => [field, input[field] ?? suggested[field]])) as unknown as CoinBrakes;
}

/** The fields the body carried (the brakes are optional): an absent one is not set. */
const withoutAbsent = (input: GiftCoinInput) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

/** Whether `wanted` (micro-units) is a looser limit than `current`: 0 where it was on, or a higher amount. */
const looser = (wanted: bigint, current: bigint) => current > 0n && (wanted === 0n || wanted > current);

/** A place-on-TON field as text, to compare what was typed with what is stored ('' for none). */
const chainValue = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** What the coin holds in force: its limits (micro-units), its place on TON and whether it can be withdrawn. */
interface LiveCoin {
  limits: Record<Limit, bigint>;
  chain: Record<(typeof CHAIN)[number], unknown>;
  withdrawEnabled: boolean;
}

const liveCoin = (coin: Record<string, unknown>): LiveCoin => ({
  limits: Object.fromEntries(LIMITS.map((field) => [field, BigInt((coin[field] as number | null | undefined) ?? 0)])) as Record<
    Limit,
    bigint
  >,
  chain: Object.fromEntries(CHAIN.map((field) => [field, coin[field] ?? ''])) as LiveCoin['chain'],
  withdrawEnabled: !!coin.withdrawEnabled,
});

/**
 * Takes out of `fields` what lets one operator move more value than the coin allows now, returned as the change that waits
 * for a second operator: a looser limit (0 where it was on, or higher), turning withdrawals on, or another place on TON
 * (network, jetton master, decimals: what a payout of a balance sends). Tighter limits and the rest apply at once.
 */
function holdLoosening(fields: Record<string, unknown>, live: LiveCoin, isNew = false): Record<string, unknown> {
  const held: Record<string, unknown> = {};
  for (const field of LIMITS) {
    const typed = fields[field];
    if (typeof typed !== 'string' || !looser(toMicros(typed), live.limits[field])) continue;
    held[field] = Number(toMicros(typed));
    delete fields[field];
  }
  if (fields.withdrawEnabled === true && !live.withdrawEnabled) {
    held.withdrawEnabled = true;
    fields.withdrawEnabled = false;
  }
  // a new coin's place on TON is its first: nothing is paid in it until withdrawals, which wait above, are on
  if (isNew) return held;
  const moves = (field: (typeof CHAIN)[number]) => field in fields && chainValue(fields[field]) !== chainValue(live.chain[field]);
  // taking a jetton master away pays nothing anywhere: it applies at once, as long as the network stays
  const clearsMaster = moves('jettonMaster') && !chainValue(fields.jettonMaster) && !moves('network');
  for (const field of CHAIN)
    if (moves(field) && !(field === 'jettonMaster' && clearsMaster)) {
      held[field] = fields[field];
      delete fields[field];
    }
  return held;
}

/** The coin as the console reads it, its waiting brake change in decimals. */
const presentCoin = (doc: unknown) => presentWithChange(coinChanges, doc);

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

/** Coins as where a save holds a brake change for a second operator (accounts/changeRequests.service.ts). */
export const coinRequests = requestsOn(coinChanges, async (id) => {
  const coin = await GiftCoinModel.findById(id);
  return coin && presentCoin(coin);
});

type Audited = { audited: () => void };

async function createCoin(input: GiftCoinInput, { operator, audited }: OperatorContext & Audited) {
  const suggested = suggestedCoinBrakes({ usdPrice: input.usdPrice });
  const fields: Record<string, unknown> = { ...input, ...brakesOrSuggested(input) };
  // a new coin starts at the suggested brakes and without withdrawals: looser brakes, or withdrawals, wait like any loosening
  const start = liveCoin({ ...Object.fromEntries(BRAKES.map((f) => [f, Number(toMicros(suggested[f]))])), withdrawEnabled: false });
  const held = holdLoosening(fields, start, true);
  const waitingChange = Object.keys(held).length ? askChange(held, operator, new Date()) : null;
  // a coin created with a change held is a request of the money engine, which audits the creation once
  return saveCoinIdentity(input, undefined, (_keys, id) =>
    createRequested(
      coinRequests,
      { operator, held: waitingChange, id },
      (_id) => GiftCoinModel.create({ ...suggested, ...fields, waitingChange, _id }),
      audited,
    ),
  );
}

async function updateCoin(
  id: string,
  input: GiftCoinInput,
  { operator, audited, brakeState }: OperatorContext & Audited & { brakeState: string | undefined },
) {
  const stored = await GiftCoinModel.findById(id, {
    ...Object.fromEntries([...LIMITS, ...CHAIN].map((f) => [f, 1])),
    withdrawEnabled: 1,
    waitingChange: 1,
    lastChangeDecision: 1,
  }).lean<Record<string, unknown> & { waitingChange?: WaitingChange | null; lastChangeDecision?: ChangeDecision | null }>();
  // the save that asked for the change waiting now is audited first, should a crash have cut it off
  if (stored?.waitingChange) await finishRequests(coinRequests, [stored.waitingChange.id]);
  const fields = withoutAbsent(input);
  const live = stored && liveCoin(stored);
  const held = live ? holdLoosening(fields, live) : {};
  // a limit set to another amount than the one in force replaces what waited; an edit of anything else keeps it
  const changed = live && LIMITS.some((f) => typeof fields[f] === 'string' && toMicros(fields[f]) !== live.limits[f]);
  const waiting = Object.keys(held).length
    ? { waitingChange: askChange(held, operator, new Date()) }
    : changed
      ? { waitingChange: null }
      : {};
  // the coin keeps its place on TON (and the keys that hold it) until a second operator approves another
  const keepsPlace = live && ('network' in held || 'jettonMaster' in held);
  const identity = { ...input, ...(keepsPlace && { network: live.chain.network, jettonMaster: live.chain.jettonMaster }) } as GiftCoinInput;
  // a brake change held for a second operator is a request of the money engine, which audits the edit once
  return saveCoinIdentity(identity, id, () =>
    // only on the coin as read, and as the operator's form showed it: the same waiting change and last decision, and withdrawals
    // off if it writes them back (409 if not)
    saveAsRead(
      coinRequests,
      { id, read: stored, held: waiting.waitingChange, brakeState },
      { operator, update: { $set: { ...fields, ...waiting } }, live: 'withdrawEnabled' in held ? { withdrawEnabled: false } : {} },
      audited,
    ),
  );
}

export const giftCoinsResource: typeof resource = {
  ...resource,
  record: { present: presentCoin },
  create: { schema: giftCoinInput, run: createCoin },
  update: { schema: giftCoinInput, run: updateCoin },
  extraRoutes: (router) => changeRoutes(router, coinChanges, async (id) => presentCoin(await GiftCoinModel.findById(id))),
};
