import type { Types } from 'mongoose';
import type { LedgerReason } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { LedgerEntryModel } from './ledger.models';

/**
 * The players with a posted line of these reasons in this coin written in [from, to), through the index on reason, state and
 * date (the ledger's lines are never edited after they are posted, so a window read twice names the same players).
 */
export async function earnersBetween(reasons: readonly LedgerReason[], coinId: Id, from: Date, to: Date): Promise<Types.ObjectId[]> {
  const rows = await LedgerEntryModel.aggregate<{ _id: Types.ObjectId }>([
    { $match: { reason: { $in: reasons }, state: 'posted', createdAt: { $gte: from, $lt: to }, coin: objectId(coinId) } },
    { $group: { _id: '$user' } },
  ]);
  return rows.map((row) => row._id);
}

/** What each of these players was credited in [from, to) with lines of these reasons in this coin (micro-units), by player id. */
export async function earnedBetween(
  playerIds: Id[],
  reasons: readonly LedgerReason[],
  coinId: Id,
  from: Date,
  to: Date,
): Promise<Map<string, bigint>> {
  if (!playerIds.length) return new Map();
  const rows = await LedgerEntryModel.aggregate<{ _id: Types.ObjectId; total: number }>([
    {
      $match: {
        user: { $in: playerIds.map(objectId) },
        createdAt: { $gte: from, $lt: to },
        reason: { $in: reasons },
        state: 'posted',
        coin: objectId(coinId),
      },
    },
    { $group: { _id: '$user', total: { $sum: '$amount' } } },
  ]);
  return new Map(rows.map((row) => [String(row._id), BigInt(row.total)]));
}
