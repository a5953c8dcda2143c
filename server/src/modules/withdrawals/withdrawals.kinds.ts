import type { Types } from 'mongoose';
import { entryKeys, registerOperationKind, runOperation } from '../ledger/ledger.service';
import { WithdrawalModel } from './withdrawal.model';

/**
 * A withdrawal request as a kind of the money engine (ledger/engine.ts): the operation is recorded first with the request,
 * the engine takes the amount from the player's balance into `withdrawals:in-flight`, and its step writes the withdrawal,
 * pending. A balance that does not cover it refuses the operation and nothing is left, no withdrawal either; a crash anywhere
 * is finished by a retry or the money recovery's sweep. So a withdrawal that exists has had its amount taken: it carries no
 * flag of money owed. Registered when this file loads, which every process that records or finishes one does.
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

registerOperationKind({
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
});

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
