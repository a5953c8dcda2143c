import { fromMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import type { TimeSlice } from '../../db/timePage';
import { LedgerEntryModel } from './ledger.models';

/** One page of a player's posted ledger entries for their timeline, newest first: served by (user, createdAt, _id). */
export async function ledgerMomentsOf(playerId: Id, slice: TimeSlice) {
  const rows = await LedgerEntryModel.find(
    { user: objectId(playerId), ...slice.filter, state: 'posted' },
    { amount: 1, coin: 1, reason: 1, refType: 1, refId: 1, createdAt: 1 },
  )
    .sort(slice.sort)
    .limit(slice.limit)
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    at: row.createdAt,
    amount: fromMicros(row.amount),
    coin: String(row.coin),
    reason: row.reason,
    refType: row.refType,
    refId: row.refId,
  }));
}
