import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { planted } from '../../lib/mutations';
import { findCoin } from '../coins/giftCoins.service';
import { entryKeys, moveHouseValue, postEntry, runOperation, type OperationKind } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { explorerLink } from './chainPayments';
import { WithdrawalModel } from './withdrawal.model';

/**
 * A withdrawal's two money operations, as kinds of the money engine (ledger/engine.ts).
 *
 * The request: the operation is recorded first with the request,
 * the engine takes the amount from the player's balance into `withdrawals:in-flight`, and its step writes the withdrawal,
 * pending. A balance that does not cover it refuses the operation and nothing is left, no withdrawal either; a crash anywhere
 * is finished by a retry or the money recovery's sweep. So a withdrawal that exists has had its amount taken: it carries no
 * flag of money owed. Registered at the composition root (server/src/moneyKinds.ts).
 */

/** A withdrawal request as its record holds it: what the operation records and its step writes. */
export interface WithdrawalRequestRecord {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  /** Micro-units, as stored. */
  amount: number;
  address: string;
  idempotencyKey: string;
}

const WITHDRAWAL_REQUEST = 'withdrawal-request';

const withdrawalRequestKind: OperationKind = {
  kind: WITHDRAWAL_REQUEST,
  steps: [
    {
      // the request's record, written once from the operation (an upsert on its id: a second run, or a record that
      // already exists, is left as it is)
      name: 'record',
      run: async (operation) => {
        const { _id, ...request } = (operation.data as { withdrawal: WithdrawalRequestRecord }).withdrawal;
        await WithdrawalModel.updateOne({ _id }, { $setOnInsert: { ...request, status: 'pending' } }, { upsert: true });
      },
    },
  ],
};

/**
 * Takes a withdrawal's amount from the player and writes its record, once per withdrawal however often it is called: for a
 * withdrawal whose amount was taken long ago it changes nothing (one command). `guarded`: the player's own request, refused
 * once they are frozen or banned. Throws INSUFFICIENT_BALANCE when the balance cannot cover it, leaving nothing.
 */
export function takeWithdrawal(withdrawal: WithdrawalRequestRecord, { guarded = false }: { guarded?: boolean } = {}) {
  return runOperation({
    kind: WITHDRAWAL_REQUEST,
    key: entryKeys.withdrawalDebit(withdrawal._id),
    refType: 'Withdrawal',
    refId: String(withdrawal._id),
    players: [{ user: withdrawal.user, coin: withdrawal.coin, amount: -BigInt(withdrawal.amount), reason: 'withdraw' }],
    house: [{ account: 'withdrawals:in-flight', coin: withdrawal.coin, amount: BigInt(withdrawal.amount) }],
    data: {
      withdrawal: {
        _id: withdrawal._id,
        user: withdrawal.user,
        coin: withdrawal.coin,
        amount: withdrawal.amount,
        address: withdrawal.address,
        idempotencyKey: withdrawal.idempotencyKey,
      },
    },
    ...(guarded ? { guarded } : {}),
  });
}

/** A final decision on a withdrawal: paid (by hand with its hash, or confirmed on chain) or rejected. */
export interface WithdrawalDecision {
  status: 'done' | 'rejected';
  /** The statuses it may be taken from: an operator's, pending or approved; the hot wallet's, sending. */
  from: string[];
  processedAt: Date;
  processedBy?: Types.ObjectId | null;
  txHash?: string;
  rejectReason?: string;
  /** Set by the hot wallet: where its payout stands on chain. */
  payoutState?: string;
  /** A rejection gives the amount back unless it never left the balance (a request an older version left untaken). */
  refund?: boolean;
}

interface DecisionData extends WithdrawalDecision {
  withdrawalId: Types.ObjectId;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
}

const WITHDRAWAL_DECISION = 'withdrawal-decision';

/**
 * The decision: recorded first, then admitted by taking the withdrawal's status (a conditional update from the statuses it
 * may come from, naming this operation), so however many operators and the hot wallet decide at once one decision stands and
 * the others are refused with nothing moved. A rejection's postings give the amount back; its steps record a payment on
 * chain as paid (the house's in-flight to paid) and tell the player. Keyed per outcome: a rejection under the refund's key, a
 * payment under `decision:<id>`.
 */
const withdrawalDecisionKind: OperationKind = {
  kind: WITHDRAWAL_DECISION,
  admit: async (operation) => {
    const decision = operation.data as DecisionData;
    const set: Record<string, unknown> = {
      status: decision.status,
      processedAt: decision.processedAt,
      decision: operation.key,
      updatedAt: new Date(),
    };
    if (decision.processedBy) set.processedBy = decision.processedBy;
    if (decision.txHash !== undefined) set.txHash = decision.txHash;
    if (decision.rejectReason !== undefined) set.rejectReason = decision.rejectReason;
    if (decision.payoutState) Object.assign(set, { 'payout.state': decision.payoutState, chainNote: '' });
    // the driver's own update: the flag an older version set (`settled`) is removed with it, which the schema no longer names
    const taken = await WithdrawalModel.collection.updateOne(
      { _id: decision.withdrawalId, status: { $in: decision.from }, decision: { $in: [null, operation.key] } },
      { $set: set, $unset: { settled: '' } },
    );
    if (taken.matchedCount) return null;
    const current = await WithdrawalModel.findById(decision.withdrawalId, { decision: 1 }).lean();
    return current?.decision === operation.key ? null : new AppError('WITHDRAWAL_PROCESSED');
  },
  steps: [
    {
      name: 'payout',
      run: async (operation) => {
        const decision = operation.data as DecisionData;
        if (decision.status === 'done') await recordPayout({ _id: decision.withdrawalId, ...decision });
      },
    },
    {
      // a mutation run's planted bug (lib/mutations.ts), never in production: the refund posted again under a key of its own
      name: 'refund-again',
      run: async (operation) => {
        const decision = operation.data as DecisionData;
        if (!planted('refund-twice') || decision.status !== 'rejected' || decision.refund === false) return;
        await postEntry({
          userId: decision.user,
          coinId: decision.coin,
          amount: BigInt(decision.amount),
          reason: 'refund',
          refType: 'Withdrawal',
          refId: String(decision.withdrawalId),
          idempotencyKey: `${entryKeys.withdrawalRefund(decision.withdrawalId)}:again`,
        });
      },
    },
    {
      name: 'notify',
      run: async (operation) => {
        const decided = await WithdrawalModel.findById((operation.data as DecisionData).withdrawalId).lean();
        if (decided) await notifyDecision(decided);
      },
    },
  ],
};

/** Decides a withdrawal once; `recorded` is false for a later call with the same decision (a second click, a retry). */
export function decideWithdrawal(
  withdrawal: { _id: Types.ObjectId; user: Types.ObjectId; coin: Types.ObjectId; amount: number },
  decision: WithdrawalDecision,
) {
  const data: DecisionData = {
    ...decision,
    withdrawalId: withdrawal._id,
    user: withdrawal.user,
    coin: withdrawal.coin,
    amount: withdrawal.amount,
  };
  const refund = decision.status === 'rejected' && decision.refund !== false;
  return runOperation({
    kind: WITHDRAWAL_DECISION,
    key: decision.status === 'rejected' ? entryKeys.withdrawalRefund(withdrawal._id) : `decision:${String(withdrawal._id)}`,
    refType: 'Withdrawal',
    refId: String(withdrawal._id),
    players: refund ? [{ user: withdrawal.user, coin: withdrawal.coin, amount: BigInt(withdrawal.amount), reason: 'refund' }] : [],
    house: refund ? [{ account: 'withdrawals:in-flight', coin: withdrawal.coin, amount: -BigInt(withdrawal.amount) }] : [],
    note: decision.rejectReason ?? '',
    createdBy: decision.processedBy ?? null,
    data: { ...data },
  });
}

/** A withdrawal paid (on chain, or by hand with its hash): its amount leaves the house's in-flight account as paid. */
export function recordPayout(withdrawal: {
  _id: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  processedBy?: Types.ObjectId | null;
}) {
  return moveHouseValue({
    kind: 'payout',
    key: `payout:${String(withdrawal._id)}`,
    refType: 'Withdrawal',
    refId: String(withdrawal._id),
    coinId: withdrawal.coin,
    from: 'withdrawals:in-flight',
    to: 'paid:chain',
    amount: BigInt(withdrawal.amount),
    createdBy: withdrawal.processedBy ?? null,
  });
}

/** Tells the player their withdrawal was paid (with where to see it) or rejected (and refunded), once each. */
export async function notifyDecision(withdrawal: {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  status: string;
  txHash: string;
  rejectReason: string;
}) {
  const coin = await findCoin(withdrawal.coin, { symbol: 1 });
  const money = { amount: fromMicros(withdrawal.amount), symbol: coin?.symbol ?? '' };
  if (withdrawal.status === 'done') {
    await notify(withdrawal.user, `withdrawal-paid:${String(withdrawal._id)}`, 'withdrawal-paid', {
      ...money,
      txHash: withdrawal.txHash,
      explorerUrl: explorerLink(withdrawal.txHash),
    });
  } else {
    await notify(withdrawal.user, `withdrawal-rejected:${String(withdrawal._id)}`, 'withdrawal-rejected', {
      ...money,
      reason: withdrawal.rejectReason,
    });
  }
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const withdrawalKinds: readonly OperationKind[] = [withdrawalRequestKind, withdrawalDecisionKind];
