import type { Types } from 'mongoose';
import type { HouseAccount, LedgerReason } from '@gift/shared';
import { isDuplicateKey } from '../../db/mongoErrors';
import { LedgerEntryModel } from './ledger.models';
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
 * Gives every ledger line written before the engine its operation, in double entry: the line's posting and the house's
 * opposite one, under the line's own key. A posted line's operation is done; a line a crash left pending gets a recorded
 * operation, which the engine's sweep finishes or refuses as it would any other (see ledger/engine.ts). Crash-safe and
 * resumable: the operation is written under its key first, then the line points at it, so a pass cut short is carried on
 * by the next (at start-up, and by the sweep). Returns how many lines it moved.
 */
export async function migrateLedgerToOperations(batch = 500): Promise<number> {
  let moved = 0;
  for (;;) {
    const lines = await LedgerEntryModel.find({ operation: null }).sort({ _id: 1 }).limit(batch).lean<Line[]>();
    for (const line of lines) {
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
      moved++;
    }
    if (lines.length < batch) return moved;
  }
}
