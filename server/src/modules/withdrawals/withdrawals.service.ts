import type { Types } from 'mongoose';
import type { z } from 'zod';
import {
  fitsDecimals,
  fromMicros,
  MONEY_DECIMALS,
  microsToStored,
  toMicros,
  type RiskLevel,
  type withdrawalReviewInput,
} from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { idOfKey, objectId, scopedKey, type Id } from '../../db/ids';
import type { NewRecord } from '../../db/schemaKit';
import { coinNameFor, findCoin, listCoins } from '../coins/giftCoins.service';
import { balanceOf, balancesOf } from '../ledger/ledger.service';
import { migrateOnce } from '../../db/migrationProgress';
import { currentWallet } from '../wallet/wallet.service';
import { markRiskDue } from '../users/players.service';
import { requireNoDebt } from '../clawbacks/clawBack.service';
import { WithdrawalModel, type WithdrawalDocument } from './withdrawal.model';
import { decideWithdrawal, notifyDecision, recordPayout, takeWithdrawal, type WithdrawalRequestRecord } from './withdrawals.kinds';
import { explorerLink } from './chainPayments';

/** A decision that records at once: paid (a hash already checked) or rejected. Approval goes through payouts.service. */
export type WithdrawalReview = Exclude<z.infer<typeof withdrawalReviewInput>, { status: 'approved' }>;

interface CoinSummary {
  _id: Types.ObjectId;
  symbol: string;
  name: string;
  icon: string;
}
const COIN_FIELDS = 'symbol name icon';

/** What a player sees of one of their withdrawals. */
function presentForPlayer(withdrawal: WithdrawalDocument, coin: CoinSummary | null) {
  return {
    id: String(withdrawal._id),
    coin: coin ? { id: String(coin._id), symbol: coin.symbol, name: coin.name, icon: coin.icon } : null,
    amount: fromMicros(withdrawal.amount),
    address: withdrawal.address,
    status: withdrawal.status,
    txHash: withdrawal.txHash,
    /** The transaction on the configured explorer (tonviewer; testnet.tonviewer on testnet). */
    explorerUrl: withdrawal.txHash ? explorerLink(withdrawal.txHash) : '',
    /** in-batch, sent, confirmed, bounced (or empty before the hot wallet takes it). */
    chainState: withdrawal.payout?.state ?? '',
    rejectReason: withdrawal.rejectReason,
    createdAt: withdrawal.createdAt,
    processedAt: withdrawal.processedAt,
  };
}

function isInsufficient(error: unknown): boolean {
  return error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE';
}

/**
 * Makes sure a withdrawal's amount has left the balance before it is paid or refunded: every withdrawal written by this
 * version has (its record is written by the operation that took it), so this is one command that changes nothing; a request
 * an older version left untaken has it taken now. INSUFFICIENT_BALANCE when the balance cannot cover it.
 */
export async function ensureAmountTaken(withdrawal: WithdrawalDocument) {
  // the operation records the request's own fields of it
  await takeWithdrawal(withdrawal);
}

/** An operator's decision on one withdrawal, as both doors pass it. */
export interface DecisionRequest<Review> {
  withdrawalId: string;
  review: Review;
  accountId: Id;
  now: Date;
}

/**
 * Start-up, once: requests an older version recorded before taking their amount (`amountTaken: false`) and a crash left
 * so are finished by the engine's own operation under the same key, and the flag removed; one the balance no longer covers
 * is removed, as that version's sweep did.
 */
function finishRequestsOfOlderVersion(): Promise<void> {
  return migrateOnce('withdrawal-owed-requests', async () => {
    const owed = await WithdrawalModel.collection.find<WithdrawalRequestRecord & { status: string }>({ amountTaken: false }).toArray();
    for (const request of owed) {
      if (request.status === 'pending') {
        try {
          await takeWithdrawal(request);
        } catch (error) {
          if (!isInsufficient(error)) throw error;
          await WithdrawalModel.collection.deleteOne({ _id: request._id, status: 'pending', amountTaken: false });
          continue;
        }
      }
      await WithdrawalModel.collection.updateOne({ _id: request._id }, { $unset: { amountTaken: '' } });
    }
    return null;
  });
}

/** Withdrawals paid before payouts were operations get theirs, once (crash-safe: each is keyed, and progress is kept). */
function recordPastPayouts() {
  return migrateOnce('payout-operations', async (after) => {
    const paid = await WithdrawalModel.find({ status: 'done', ...(after ? { _id: { $gt: objectId(after) } } : {}) })
      .sort({ _id: 1 })
      .limit(500)
      .lean();
    for (const withdrawal of paid) await recordPayout(withdrawal);
    return paid.length ? String(paid[paid.length - 1]!._id) : null;
  });
}

/**
 * Start-up, once: decisions an older version recorded before refunding or telling the player (`settled: false`) and a crash
 * left so are finished by the engine's decision under the same keys, and the flag removed.
 */
function finishDecisionsOfOlderVersion(): Promise<void> {
  return migrateOnce('withdrawal-owed-decisions', async () => {
    const owed = await WithdrawalModel.find({ settled: false });
    for (const decided of owed) {
      if (decided.status === 'done' || decided.status === 'rejected') {
        const { status, processedAt, txHash, rejectReason } = decided;
        await decideWithdrawal(decided, { status, from: [status], processedAt: processedAt ?? new Date(), txHash, rejectReason });
        await notifyDecision(decided);
      }
      await WithdrawalModel.collection.updateOne({ _id: decided._id }, { $unset: { settled: '' } });
    }
    return null;
  });
}

/**
 * What an older version left half done, finished once at start-up (withdrawals paid before payouts were operations, requests
 * not yet taken, decisions not yet settled); afterwards a read each. Requests and decisions are the engine's operations now,
 * finished with the others.
 */
export async function finishWithdrawalsOfOlderVersion(): Promise<number> {
  await recordPastPayouts();
  await finishRequestsOfOlderVersion();
  await finishDecisionsOfOlderVersion();
  return 0;
}

export interface WithdrawalRequest {
  userId: Id;
  coinId: string;
  amount: string;
  /** The client's key for this tap; scoped to the player. */
  idempotencyKey: string;
}

/**
 * A player's withdrawal to their linked TON wallet: the amount leaves the balance at once and the withdrawal waits for an
 * operator. One operation of the engine (`withdrawal-request`, withdrawals.kinds.ts) takes the amount and writes the
 * withdrawal; its id derives from the player's key, so the same key (a double tap, a retry) gives the same withdrawal, taken
 * once.
 */
export async function requestWithdrawal({ userId, coinId, amount, idempotencyKey }: WithdrawalRequest) {
  const key = scopedKey(userId, idempotencyKey);
  const present = async (withdrawal: WithdrawalDocument) => presentForPlayer(withdrawal, await findCoin(withdrawal.coin, COIN_FIELDS));
  const earlier = await WithdrawalModel.findOne({ idempotencyKey: key });
  if (earlier) return present(earlier);

  const coin = await findCoin(coinId);
  if (!coin) throw new AppError('NOT_FOUND');
  if (!coin.enabled || !coin.withdrawEnabled) throw new AppError('WITHDRAW_DISABLED');
  if (!fitsDecimals(amount, coin.decimals))
    throw badInput({ amount: `At most ${Math.min(coin.decimals, MONEY_DECIMALS)} decimals for ${coin.symbol}` });
  const wallet = await currentWallet(userId);
  if (!wallet) throw new AppError('WALLET_REQUIRED');
  // a claw-back still owed blocks withdrawals until the balance has covered it
  await requireNoDebt(userId);
  // a withdrawal soon after a wallet was linked is one of the risk score's signals
  await markRiskDue([userId], new Date());

  const requested = toMicros(amount);
  const minimum = BigInt(coin.minWithdraw as number);
  const balance = await balanceOf(userId, coin._id);
  const refusal =
    requested < minimum || balance < minimum
      ? new AppError('WITHDRAW_MINIMUM', { amount: fromMicros(minimum), symbol: coin.symbol })
      : requested > balance
        ? new AppError('INSUFFICIENT_BALANCE')
        : null;
  const request: WithdrawalRequestRecord = {
    _id: idOfKey('withdrawal', key),
    user: objectId(userId),
    coin: coin._id,
    amount: microsToStored(requested),
    address: wallet.address,
    idempotencyKey: key,
  };
  try {
    // a refused amount is tried all the same when it is not below the minimum: a second tap racing the first finds the
    // balance already taken, and the operation, recorded by the first under the same key, gives it the first one's withdrawal
    if (refusal && requested < minimum) throw refusal;
    await takeWithdrawal(request, { guarded: true });
  } catch (error) {
    throw refusal && isInsufficient(error) ? refusal : error;
  }
  const taken = await WithdrawalModel.findById(request._id);
  if (!taken) throw new AppError('NOT_FOUND');
  return present(taken);
}

/** The coins a player can withdraw now: balance, minimum, and how many decimals an amount may have. */
export async function withdrawableCoins(userId: Id, language?: string) {
  const [coins, balances] = await Promise.all([
    listCoins({ symbol: 1, name: 1, fa: 1, icon: 1, decimals: 1, minWithdraw: 1 }, { enabled: true, withdrawEnabled: true }),
    balancesOf(userId),
  ]);
  return coins.map((coin) => ({
    coinId: String(coin._id),
    symbol: coin.symbol,
    name: coinNameFor(coin, language),
    icon: coin.icon,
    balance: fromMicros(balances.get(String(coin._id)) ?? 0n),
    minimum: fromMicros(coin.minWithdraw as number),
    decimals: Math.min(coin.decimals, MONEY_DECIMALS),
  }));
}

/** A player's withdrawals, newest first. */
export async function withdrawalHistory(userId: Id, { page, pageSize }: { page: number; pageSize: number }) {
  const filter = { user: userId };
  const [rows, total] = await Promise.all([
    WithdrawalModel.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .populate<{ coin: CoinSummary | null }>('coin', COIN_FIELDS),
    WithdrawalModel.countDocuments(filter),
  ]);
  return {
    items: rows.map((row) => presentForPlayer(row as unknown as WithdrawalDocument, row.coin)),
    total,
    page,
    pageSize,
  };
}

/**
 * An operator's decision on a pending or approved withdrawal: done (paid, with its transaction hash) or rejected (the amount
 * goes back). One operation of the engine (`withdrawal-decision`, withdrawals.kinds.ts) takes the withdrawal's status, gives
 * a rejection's amount back and tells the player, so only the first decision counts however many operators click at once,
 * and a crash in between is finished by a repeated click or the sweep. An approved withdrawal may still be paid by hand or
 * rejected until the hot wallet claims it for a batch.
 */
export async function processWithdrawal({ withdrawalId, review, accountId, now }: DecisionRequest<WithdrawalReview>) {
  const withdrawal = await WithdrawalModel.findById(withdrawalId);
  if (!withdrawal) throw new AppError('NOT_FOUND');
  // never mark paid or refund what was never taken from the balance: a payment is refused (INSUFFICIENT_BALANCE, and it
  // stays pending for the operator to reject), a rejection gives nothing back
  let refund = true;
  try {
    await ensureAmountTaken(withdrawal);
  } catch (error) {
    if (!isInsufficient(error) || review.status === 'done') throw error;
    refund = false;
  }
  const decision =
    review.status === 'done'
      ? { status: 'done' as const, txHash: review.txHash }
      : { status: 'rejected' as const, rejectReason: review.rejectReason, refund };
  const { recorded } = await decideWithdrawal(withdrawal, {
    ...decision,
    from: ['pending', 'approved'],
    processedAt: now,
    processedBy: objectId(accountId),
  });
  if (!recorded) throw new AppError('WITHDRAWAL_PROCESSED');
  return (await WithdrawalModel.findById(withdrawal._id))!;
}

/** Withdrawals not yet paid (pending, approved, on their way) summed per coin (micro-units) and counted. */
export function pendingWithdrawalTotals() {
  return WithdrawalModel.aggregate<{ _id: unknown; total: number; count: number }>([
    { $match: { status: { $in: ['pending', 'approved', 'sending'] } } },
    { $group: { _id: '$coin', total: { $sum: '$amount' }, count: { $sum: 1 } } },
  ]);
}

/** Withdrawals requested in [from, to), through the index on the request date. */
export function countRequestedBetween(from: Date, to: Date): Promise<number> {
  return WithdrawalModel.countDocuments({ createdAt: { $gte: from, $lt: to } });
}

type Populated<T> = T | Types.ObjectId | null;
interface UserSummary {
  _id: Types.ObjectId;
  name: string;
  username: string;
  risk?: { score: number; level: RiskLevel };
  createdAt?: Date;
}

const idOf = (ref: Populated<{ _id: Types.ObjectId }> | undefined) => (ref ? String('_id' in ref ? ref._id : ref) : null);
const isPopulated = <T extends object>(ref: Populated<T>): ref is T => !!ref && !(ref as { _bsontype?: string })._bsontype;

/** One withdrawal for the console; the player's name and the coin's symbol when they were loaded with it. */
export function presentForConsole(doc: unknown) {
  const withdrawal = doc as WithdrawalDocument & { user: Populated<UserSummary>; coin: Populated<{ _id: Types.ObjectId; symbol: string }> };
  return {
    id: String(withdrawal._id),
    user: idOf(withdrawal.user),
    ...(isPopulated(withdrawal.user)
      ? {
          userName: withdrawal.user.name,
          username: withdrawal.user.username,
          // the player's risk as last assessed and when they joined, beside the decision
          playerRisk: withdrawal.user.risk ? { score: withdrawal.user.risk.score, level: withdrawal.user.risk.level } : null,
          playerJoinedAt: withdrawal.user.createdAt ?? null,
        }
      : {}),
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

/** Inserts withdrawals as given (the demo seed); their coins are taken by the caller's ledger entry. */
export const insertWithdrawals = (records: NewRecord<typeof WithdrawalModel>[]) => WithdrawalModel.insertMany(records);

/**
 * What an operator reads beside one withdrawal's decision: the player's balance of its coin now, their other withdrawals
 * (the latest five, and how many of this coin were paid, for how much).
 */
export async function besideDecision(withdrawal: { _id: Types.ObjectId; user: Id; coin: Id }) {
  const [balance, earlier, paid] = await Promise.all([
    balanceOf(withdrawal.user, withdrawal.coin),
    WithdrawalModel.find(
      { user: objectId(withdrawal.user), _id: { $ne: withdrawal._id } },
      { amount: 1, coin: 1, status: 1, address: 1, createdAt: 1 },
    )
      .populate<{ coin: { symbol: string } | null }>('coin', 'symbol')
      .sort({ createdAt: -1, _id: -1 })
      .limit(5)
      .lean(),
    WithdrawalModel.aggregate<{ count: number; total: number }>([
      { $match: { user: objectId(withdrawal.user), coin: objectId(withdrawal.coin), status: 'done' } },
      { $group: { _id: null, count: { $sum: 1 }, total: { $sum: '$amount' } } },
    ]),
  ]);
  return {
    balance: fromMicros(balance),
    paid: { count: paid[0]?.count ?? 0, amount: fromMicros(paid[0]?.total ?? 0) },
    earlier: earlier.map((w) => ({
      id: String(w._id),
      amount: fromMicros(w.amount),
      symbol: w.coin?.symbol ?? '',
      status: w.status,
      address: w.address,
      createdAt: w.createdAt,
    })),
  };
}

/** A player's withdrawal requests, newest first (up to `limit`): where to and when, for the risk score. */
export function withdrawalTimesOf(playerId: Id, limit: number) {
  return WithdrawalModel.find({ user: objectId(playerId) }, { address: 1, createdAt: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean();
}
