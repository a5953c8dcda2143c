import { fromMicros, type LedgerReason } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { AppError, badInput } from '../../lib/errors';
import type { Operator } from '../audit/audit.service';
import { findCoin } from '../coins/giftCoins.service';
import { entryById } from '../ledger/ledger.service';
import type { ConsoleRecord } from '../../db/schemaKit';
import { ClawBackModel, type ClawBackDocument } from './clawBack.model';
import { collect, openClawBack } from './clawbacks.kinds';

/** A claw-back as the console reads it: its amounts as decimal strings. */
export type ClawBackRecord = ConsoleRecord<typeof ClawBackModel, 'amount' | 'taken'>;

/** Credits an operator may take back: rewards, mining, gifts; never a refund or a stake's return, which were the player's own. */
export const TAKEN_BACK_REASONS: readonly LedgerReason[] = ['mission', 'referral', 'mining', 'gift'];
const TAKEN_BACK = new Set<string>(TAKEN_BACK_REASONS);

/** As the console shows a claw-back: amounts as decimals, what is still owed, and the coin's symbol. */
async function present(clawBack: ClawBackDocument) {
  const coin = await findCoin(clawBack.coin, { symbol: 1 });
  const owed = BigInt(clawBack.amount) - BigInt(clawBack.taken as number);
  return {
    ...(clawBack.toJSON() as Record<string, unknown>),
    reason: clawBack.reason,
    owed: fromMicros(owed > 0n ? owed : 0n),
    symbol: coin?.symbol ?? '',
  };
}

/**
 * Opens the claw-back of one posted credit (once per credit, however many callers ask at once), audits it, and takes what the
 * balance covers: a `clawback-open` operation of the engine (clawbacks.kinds.ts), which a crash leaves to a retry or the sweep.
 * `origin` names what asked for it beside the operator (a cluster's clean-up), in the audit.
 */
export const takeBack = openClawBack;

/**
 * An operator takes back one credit of a player, with the reason: what the balance covers at once, never below zero; the rest
 * is owed (and blocks withdrawals) until the player's balance covers it. The same credit is taken back once, however often asked.
 */
export async function clawBack(userId: string, input: { entryId: string; reason: string }, operator: Operator) {
  const credit = await entryById(input.entryId);
  if (!credit || String(credit.user) !== userId || credit.state !== 'posted') throw new AppError('NOT_FOUND');
  if (credit.amount <= 0 || !TAKEN_BACK.has(credit.reason))
    throw badInput({ entryId: 'Only a reward, a mining credit or a gift can be taken back' });
  return present(await takeBack(credit, input.reason, operator));
}

/** What a player still owes from claw-backs, per claw-back (for their page and the withdrawal check). */
export async function owedBy(userId: Id) {
  const owed = await ClawBackModel.find({ user: objectId(userId), status: 'owed' });
  return Promise.all(owed.map(present));
}

/** A player who owes a claw-back may not withdraw until it is settled: the reason, the amount and the coin. */
export async function requireNoDebt(userId: Id): Promise<void> {
  const [first] = await owedBy(userId);
  if (first) throw new AppError('DEBT_OWED', { amount: first.owed, symbol: first.symbol, reason: first.reason });
}

/** The players who owe a claw-back now: their approved withdrawals wait at send time, as a freeze holds them. */
export function playersOwing() {
  return ClawBackModel.distinct('user', { status: 'owed' });
}

/** The sweep: takes what owed claw-backs can now take (a player credited since); returns how many it settled. */
export async function collectOwed(limit = 200): Promise<number> {
  const owed = await ClawBackModel.find({ status: 'owed' }).sort({ updatedAt: 1 }).limit(limit);
  let settled = 0;
  for (const claw of owed) if ((await collect(claw)).status === 'settled') settled++;
  return settled;
}

/** The claw-backs opened for these ledger entries (at most one each), as they stand. */
export function clawBacksOfEntries(entryIds: string[]) {
  return ClawBackModel.find({ entry: { $in: entryIds } }).lean();
}
