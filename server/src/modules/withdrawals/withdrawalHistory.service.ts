import { fromMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import type { TimeSlice } from '../../db/timePage';
import { WithdrawalModel } from './withdrawal.model';

/**
 * The moments of a player's withdrawals a timeline shows (issue 34, item 6): the request (createdAt), the approval
 * (approvedAt), and the end (processedAt: paid when done, decided when rejected).
 */
export const WITHDRAWAL_MOMENTS = { requested: 'createdAt', approved: 'approvedAt', closed: 'processedAt' } as const;
export type WithdrawalMoment = keyof typeof WITHDRAWAL_MOMENTS;

/** One page of one moment of a player's withdrawals, newest first: served by (user, <time>, _id). */
export async function withdrawalMomentsOf(playerId: Id, moment: WithdrawalMoment, slice: TimeSlice) {
  const field = WITHDRAWAL_MOMENTS[moment];
  const rows = await WithdrawalModel.find(
    { user: objectId(playerId), ...slice.filter },
    { amount: 1, coin: 1, status: 1, rejectReason: 1, createdAt: 1, approvedAt: 1, processedAt: 1 },
  )
    .sort(slice.sort)
    .limit(slice.limit)
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    at: row[field] as Date,
    amount: fromMicros(row.amount),
    coin: String(row.coin),
    status: row.status,
    reason: row.rejectReason ?? '',
  }));
}
