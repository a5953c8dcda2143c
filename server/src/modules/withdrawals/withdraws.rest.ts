import type { Types } from 'mongoose';
import { fromMicros, withdrawalReviewInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { playerIdsMatching } from '../users/players.service';
import { WithdrawalModel } from './withdrawal.model';
import { decideWithdrawal } from './payouts.service';
import { explorerLink } from './chainPayments';

type WithdrawalDocument = ReturnType<(typeof WithdrawalModel)['hydrate']>;
type Populated<T> = T | Types.ObjectId | null;
interface UserSummary {
  _id: Types.ObjectId;
  name: string;
  username: string;
}
interface CoinSummary {
  _id: Types.ObjectId;
  symbol: string;
}

const idOf = (ref: Populated<{ _id: Types.ObjectId }> | undefined) => (ref ? String('_id' in ref ? ref._id : ref) : null);
const isPopulated = <T extends object>(ref: Populated<T>): ref is T => !!ref && !(ref as { _bsontype?: string })._bsontype;

/** One withdrawal for the console; the player's name and the coin's symbol when they were loaded with it. */
function presentForConsole(doc: unknown) {
  const withdrawal = doc as WithdrawalDocument & { user: Populated<UserSummary>; coin: Populated<CoinSummary> };
  return {
    id: String(withdrawal._id),
    user: idOf(withdrawal.user),
    ...(isPopulated(withdrawal.user) ? { userName: withdrawal.user.name, username: withdrawal.user.username } : {}),
    coin: idOf(withdrawal.coin),
    ...(isPopulated(withdrawal.coin) ? { coinSymbol: withdrawal.coin.symbol } : {}),
    amount: fromMicros(withdrawal.amount),
    address: withdrawal.address,
    status: withdrawal.status,
    txHash: withdrawal.txHash,
    explorerUrl: withdrawal.txHash ? explorerLink(withdrawal.txHash) : '',
    approvedAt: withdrawal.approvedAt,
    approvedBy: idOf(withdrawal.approvedBy),
    chainState: withdrawal.payout?.state ?? '',
    batch: withdrawal.payout?.batch ? String(withdrawal.payout.batch) : null,
    chainNote: withdrawal.chainNote,
    rejectReason: withdrawal.rejectReason,
    processedAt: withdrawal.processedAt,
    processedBy: idOf(withdrawal.processedBy),
    processedByName: (withdrawal.processedBy as { username?: string } | null)?.username ?? '',
    createdAt: withdrawal.createdAt,
    updatedAt: withdrawal.updatedAt,
  };
}

const withNames = (doc: WithdrawalDocument) =>
  doc.populate([
    { path: 'user', select: 'name username' },
    { path: 'coin', select: 'symbol' },
    { path: 'processedBy', select: 'username' },
  ]);

/**
 * Withdrawals in the console: pending ones at /admin/withdraw, finished ones ({"status":["done","rejected"]})
 * at /admin/withdraw/done. Players create them and nobody deletes them; editing one is the operator's decision.
 */
export const withdrawsResource: ResourceDefinition<typeof withdrawalReviewInput> = {
  name: 'withdraws',
  model: WithdrawalModel,
  updateSchema: withdrawalReviewInput,
  updateAction: 'review',
  searchFields: ['address', 'txHash'],
  searchReferences: { user: playerIdsMatching },
  filters: { status: 'equals', user: 'objectId', coin: 'objectId' },
  sortable: ['amount', 'status', 'processedAt'],
  canDelete: false,
  deleteRefusal: 'a withdrawal is part of the ledger; reject a pending one instead',
  // the player's name and the coin's symbol come with each row: no lookup per row, and a withdraws-only account sees them
  populate: [
    { path: 'user', select: 'name username' },
    { path: 'coin', select: 'symbol' },
    { path: 'processedBy', select: 'username' },
  ],
  present: presentForConsole,
  show: async (doc) => presentForConsole(await withNames(doc as WithdrawalDocument)),
  update: async (id, review, req) => withNames(await decideWithdrawal({ withdrawalId: id, review, accountId: req.account!.id, now: new Date() })),
};
