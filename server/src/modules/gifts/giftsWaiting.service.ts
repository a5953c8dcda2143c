import { fromMicros } from '@gift/shared';
import { objectId } from '../../db/ids';
import { GiftApprovalModel } from './giftApproval.model';

/** Gifts and corrections waiting for a second operator, asked since `since`: the amount (signed), its coin and who asked. */
export async function giftsWaitingSince(since: Date) {
  const rows = await GiftApprovalModel.find(
    { status: 'pending', createdAt: { $gte: since } },
    { amount: 1, coin: 1, requestedBy: 1, createdAt: 1 },
  )
    .sort({ createdAt: 1 })
    .limit(200)
    .populate<{ coin: { symbol: string } | null }>('coin', 'symbol')
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    amount: row.amount > 0 ? `+${fromMicros(BigInt(row.amount))}` : fromMicros(BigInt(row.amount)),
    symbol: row.coin?.symbol ?? '',
    requestedBy: String(row.requestedBy),
    createdAt: row.createdAt,
  }));
}

/** Gifts waiting that this operator could decide: asked by someone else (a second operator decides). */
export function countGiftsWaitingFor(accountId: string): Promise<number> {
  return GiftApprovalModel.countDocuments({ status: 'pending', requestedBy: { $ne: objectId(accountId) } });
}
