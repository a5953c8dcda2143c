import { fromMicros, type LedgerReason } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { isDuplicateKey } from '../../db/mongoErrors';
import { AppError, badInput } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { recordAudit, type Operator } from '../audit/audit.service';
import { accountUsername } from '../accounts/accounts.service';
import { findCoin } from '../coins/giftCoins.service';
import { balanceOf, entryById, entryWithKey, postEntry } from '../ledger/ledger.service';
import type { ConsoleRecord } from '../../db/schemaKit';
import { ClawBackModel, type ClawBackDocument } from './clawBack.model';

/** A claw-back as the console reads it: its amounts as decimal strings. */
export type ClawBackRecord = ConsoleRecord<typeof ClawBackModel, 'amount' | 'taken'>;

/** Credits an operator may take back: rewards, mining, gifts; never a refund or a stake's return, which were the player's own. */
export const TAKEN_BACK_REASONS: readonly LedgerReason[] = ['mission', 'referral', 'mining', 'gift'];
const TAKEN_BACK = new Set<string>(TAKEN_BACK_REASONS);

/** The key of the next take: by what was taken before it, so a retry after a crash takes the same step once. */
const takeKey = (clawBack: { _id: unknown }, takenBefore: number) => `clawback:${String(clawBack._id)}:${takenBefore}`;

/**
 * Takes what the balance covers of what is still owed, step by step: each step is one ledger entry keyed by what was taken
 * before it, then the record's `taken` raised from that value. A crash between the two is finished by the next call (the same
 * key posts nothing new, and the entry's own amount is counted). Settled once all is taken.
 */
async function collect(clawBack: ClawBackDocument): Promise<ClawBackDocument> {
  let current = clawBack;
  for (let step = 0; step < 10 && current.status === 'owed'; step++) {
    const takenBefore = current.taken as number;
    const remaining = BigInt(current.amount) - BigInt(takenBefore);
    if (remaining <= 0n) {
      current =
        (await ClawBackModel.findOneAndUpdate(
          { _id: current._id, status: 'owed' },
          { $set: { status: 'settled', settledAt: new Date() } },
          { returnDocument: 'after' },
        )) ?? (await ClawBackModel.findById(current._id))!;
      break;
    }
    const key = takeKey(current, takenBefore);
    // an earlier call may have posted this step before a crash: its own amount is what was taken
    let posted = await entryWithKey(key);
    if (!posted || posted.state !== 'posted') {
      const balance = await balanceOf(current.user, current.coin);
      const take = balance < remaining ? balance : remaining;
      if (take <= 0n) break;
      try {
        await postEntry({
          userId: current.user,
          coinId: current.coin,
          amount: -take,
          reason: 'clawback',
          refType: 'ClawBack',
          refId: String(current._id),
          idempotencyKey: key,
          note: current.reason,
          createdBy: current.createdBy,
        });
      } catch (error) {
        // the balance moved under this step: the next pass sees it as it is now
        if (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE') continue;
        throw error;
      }
      posted = await entryWithKey(key);
    }
    await faultPoint('clawback:after-take');
    const taken = -Number(posted!.amount);
    await ClawBackModel.updateOne({ _id: current._id, taken: takenBefore }, { $set: { taken: takenBefore + taken } });
    current = (await ClawBackModel.findById(current._id))!;
  }
  return current;
}

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

/** A posted credit as the ledger keeps it. */
type Credit = NonNullable<Awaited<ReturnType<typeof entryById>>>;

/**
 * Opens the claw-back of one posted credit (once per credit: a conditional upsert on the credit, however many callers ask at
 * once), audits it under its own key (a repeat after a crash audits it once), and takes what the balance covers. `origin`
 * names what asked for it beside the operator (a cluster's clean-up), in the audit.
 */
export async function takeBack(credit: Credit, reason: string, operator: Operator, origin: Record<string, string> = {}) {
  let claw;
  try {
    claw = await ClawBackModel.findOneAndUpdate(
      { entry: String(credit._id) },
      {
        $setOnInsert: {
          user: credit.user,
          coin: credit.coin,
          entry: String(credit._id),
          amount: credit.amount,
          taken: 0,
          reason,
          createdBy: objectId(operator.id),
        },
      },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    claw = await ClawBackModel.findOne({ entry: String(credit._id) });
  }
  if (!claw) throw new AppError('NOT_FOUND');
  await faultPoint('clawback:after-open');
  // keyed by the claw-back: whoever opened it, its one audit entry is written by the first call that gets here
  await recordAudit({
    operator:
      operator.id === String(claw.createdBy)
        ? operator
        : { id: String(claw.createdBy), username: (await accountUsername(String(claw.createdBy))) ?? '' },
    action: 'adjust',
    resource: 'users',
    record: String(credit.user),
    before: null,
    after: { clawBack: String(claw._id), entryId: String(credit._id), amount: `-${fromMicros(credit.amount)}`, ...origin },
    note: claw.reason,
    key: `clawback:${String(claw._id)}`,
  });
  return collect(claw);
}

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
