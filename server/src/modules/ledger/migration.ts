import type { Types } from 'mongoose';
import type { HouseAccount, LedgerReason } from '@gift/shared';
import { isDuplicateKey } from '../../db/mongoErrors';
import { applyToBalance } from './engine';
import { LedgerEntryModel, LedgerHoldModel } from './ledger.models';
import { OperationModel } from './operation.model';
import { HOUSE_SIDE } from './houseSide';

type Line = {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  reason: LedgerReason;
  refType?: string | null;
  refId?: string | null;
  idempotencyKey: string;
  state: 'pending' | 'posted';
  note?: string | null;
  guarded?: boolean | null;
  createdBy?: Types.ObjectId | null;
  createdAt: Date;
};

/** A stake paid back before the engine: its principal returns from stakes held (its own `stake` line says how much), the rest is profit. */
async function houseSideOf(line: Line): Promise<Array<{ account: HouseAccount; amount: number }>> {
  if (line.reason !== 'unstake' || line.refType !== 'Stake') return [{ account: HOUSE_SIDE[line.reason], amount: -line.amount }];
  const lock = await LedgerEntryModel.findOne({ refId: line.refId, reason: 'stake', state: 'posted' }, { amount: 1 }).lean();
  const principal = lock ? -lock.amount : line.amount;
  const house: Array<{ account: HouseAccount; amount: number }> = [{ account: 'stakes:held', amount: -principal }];
  if (line.amount !== principal) house.push({ account: 'staking:profit', amount: principal - line.amount });
  return house;
}

/**
 * Writes the operation of a line written before the engine, in double entry: the line's posting and the house's opposite one,
 * under the line's own key (done for a posted line, recorded for a pending one); then the line names it. Either write may be
 * redone: the operation is written once under its key, the line pointed at it once.
 */
async function giveOperation(line: Line): Promise<Types.ObjectId> {
  const house = await houseSideOf(line);
  const fields = {
    key: line.idempotencyKey,
    kind: line.reason,
    refType: line.refType ?? '',
    refId: line.refId ?? '',
    state: line.state === 'posted' ? 'done' : 'recorded',
    postings: [
      { account: 'player', user: line.user, coin: line.coin, amount: line.amount, reason: line.reason },
      ...house.filter((h) => h.amount !== 0).map((h) => ({ account: h.account, user: null, coin: line.coin, amount: h.amount })),
    ],
    user: line.user,
    note: line.note ?? '',
    createdBy: line.createdBy ?? null,
    ...(line.guarded ? { guarded: true } : {}),
    createdAt: line.createdAt,
    updatedAt: line.createdAt,
    ...(line.state === 'posted' ? { postedAt: line.createdAt, doneAt: line.createdAt } : {}),
  };
  let operationId: Types.ObjectId;
  try {
    const written = await OperationModel.findOneAndUpdate(
      { key: fields.key },
      { $setOnInsert: fields },
      { upsert: true, returnDocument: 'after', projection: { _id: 1 }, timestamps: false },
    ).lean();
    operationId = written!._id;
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    operationId = (await OperationModel.findOne({ key: fields.key }, { _id: 1 }).lean())!._id;
  }
  await LedgerEntryModel.updateOne({ _id: line._id, operation: null }, { $set: { operation: operationId } }, { timestamps: false });
  return operationId;
}

/**
 * Gives every ledger line written before the engine its operation (see `giveOperation`). A posted line's operation is done; a
 * line a crash left pending gets a recorded operation, which `finishPendingLinesOfOlderVersion` and then the engine's sweep
 * finish or refuse as any other (see ledger/engine.ts). Crash-safe and resumable: a pass cut short is carried on by the next
 * (at start-up, and by the sweep). Returns how many pending lines it posted.
 */
export async function migrateLedgerToOperations(batch = 500): Promise<number> {
  for (;;) {
    const lines = await LedgerEntryModel.find({ operation: null }).sort({ _id: 1 }).limit(batch).lean<Line[]>();
    for (const line of lines) await giveOperation(line);
    if (lines.length < batch) break;
  }
  // none is pending any more, and the engine's sweep after this finds every line posted
  return finishPendingLinesOfOlderVersion(batch);
}

/**
 * Lines the ledger left pending before the engine (written, then a crash before they were posted) are finished at the first
 * pass after start-up, so that no line is pending any more and the engine reads no line's state: a line is there once it is
 * posted. Each gets its recorded operation under its key first; then it is applied to its balance under its key, as the
 * engine applies (once: a line the older version had applied is found there), and posted where it is, keeping its id and its
 * date (the day's figures count it on the day it was written); the sweep then marks its operation done. A line the balance
 * cannot take, or a frozen or banned player's own, is removed and its operation left recorded: the engine's sweep refuses it
 * (or applies it once, under the same key, should it be taken by then). Every write is conditional or keyed, so a crash
 * anywhere is carried on by the next pass. Later passes find none, in one read of an index (what `migrateOnce` spends to
 * find itself finished), and still look: an older version's instance still running during an upgrade may leave one.
 */
async function finishPendingLinesOfOlderVersion(batch: number): Promise<number> {
  let posted = 0;
  for (;;) {
    // each line handled leaves the pending ones (posted, or removed), so each batch reads the next
    const lines = await LedgerEntryModel.find({ state: 'pending' }).limit(batch).lean<Line[]>();
    for (const line of lines) {
      await giveOperation(line);
      const held = line.guarded && (await LedgerHoldModel.exists({ _id: line.user }));
      const outcome = held
        ? null
        : await applyToBalance({ user: line.user, coin: line.coin, amount: line.amount, key: line.idempotencyKey });
      if (outcome === 'applied' || outcome === 'already') {
        const done = await LedgerEntryModel.updateOne(
          { _id: line._id, state: 'pending' },
          { $set: { state: 'posted', postedAt: new Date(), keyReleased: false } },
          { timestamps: false },
        );
        posted += done.modifiedCount;
      } else await LedgerEntryModel.deleteOne({ _id: line._id, state: 'pending' });
    }
    if (lines.length < batch) return posted;
  }
}
