import { WITHDRAWAL_STATUSES } from '@gift/shared';
import { WithdrawalModel } from './withdrawal.model';

/** How many withdrawals are in each state: the payout queue as the metrics show it (one counted read per state, by its index). */
export async function withdrawalsByState(): Promise<Array<{ state: string; count: number }>> {
  const counts = await Promise.all(WITHDRAWAL_STATUSES.map((status) => WithdrawalModel.countDocuments({ status })));
  return WITHDRAWAL_STATUSES.map((state, i) => ({ state, count: counts[i]! }));
}
