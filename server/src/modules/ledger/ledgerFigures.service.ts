import type { Types } from 'mongoose';
import type { LedgerReason } from '@gift/shared';
import { LedgerEntryModel } from './ledger.models';

/** Posted entries of one reason created in [from, to), summed per player and coin (micro-units), through the index on reason and date. */
export function postedTotalsByPlayer(reason: LedgerReason, from: Date, to: Date) {
  return LedgerEntryModel.aggregate<{ _id: { user: Types.ObjectId; coin: Types.ObjectId }; total: number }>([
    { $match: { reason, state: 'posted', createdAt: { $gte: from, $lt: to } } },
    { $group: { _id: { user: '$user', coin: '$coin' }, total: { $sum: '$amount' } } },
  ]);
}
