import { WITHDRAWAL_STATUSES } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { WithdrawalModel } from './withdrawal.model';

/** How many withdrawals are in each state: the payout queue as the metrics show it (one counted read per state, by its index). */
export async function withdrawalsByState(): Promise<Array<{ state: string; count: number }>> {
  const counts = await Promise.all(WITHDRAWAL_STATUSES.map((status) => WithdrawalModel.countDocuments({ status })));
  return WITHDRAWAL_STATUSES.map((state, i) => ({ state, count: counts[i]! }));
}

/** A request the payout has not finished: waiting for a decision, approved for the hot wallet, or on its way. */
const IN_FLIGHT = ['pending', 'approved', 'sending'] as const;

/** One coin's withdrawals of a player still in flight, in micro-units: all requested, and how much of it left the balance. */
export interface WithdrawalsInFlight {
  requested: bigint;
  taken: bigint;
}

/** A player's withdrawals not yet paid, per coin id (a handful at most: read through the index on user). */
export async function withdrawalsInFlight(userId: Id): Promise<Map<string, WithdrawalsInFlight>> {
  const rows = await WithdrawalModel.find({ user: objectId(userId), status: { $in: IN_FLIGHT } }, { coin: 1, amount: 1 }).lean();
  const byCoin = new Map<string, WithdrawalsInFlight>();
  for (const row of rows) {
    const figures = byCoin.get(String(row.coin)) ?? { requested: 0n, taken: 0n };
    figures.requested += BigInt(row.amount);
    // a withdrawal is written by the operation that took its amount (withdrawals.kinds.ts)
    figures.taken += BigInt(row.amount);
    byCoin.set(String(row.coin), figures);
  }
  return byCoin;
}
