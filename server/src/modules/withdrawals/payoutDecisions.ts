/**
 * An operator's decisions on a withdrawal: paid by hand (its hash checked on chain), approved for the hot wallet
 * (by two operators above the coin's threshold), or rejected.
 */
import { Address, type Transaction } from '@ton/core';
import type { Types } from 'mongoose';
import { AppError, badInput, forbidden } from '../../lib/errors';
import { holdOf } from '../ledger/ledger.service';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { requireNoDebt } from '../clawbacks/clawBack.service';
import { requireNoRiskHold } from './riskHold';
import { ChainUnavailable, normaliseTxHash } from '../../lib/ton/tonChain';
import { objectId, type Id } from '../../db/ids';
import { findCoin, type CoinRow } from '../coins/giftCoins.service';
import { getAppConfig } from '../config/config.service';
import {
  chainUnits,
  describeAmount,
  findTransaction,
  formatChainUnits,
  jettonArrival,
  jettonWalletOf,
  payoutRuntime,
  readJettonTransfer,
  sentMessages,
  succeeded,
  tonArrival,
  type Arrival,
  type PayoutRuntime,
  type SentMessage,
} from './chainPayments';
import { PayoutBatchModel } from './payoutBatch.model';
import { claimHash, releaseHashes, usedBy } from './usedHashes';
import { WithdrawalModel, type WithdrawalDocument } from './withdrawal.model';
import { ensureAmountTaken, processWithdrawal, type DecisionRequest } from './withdrawals.service';

function chainDown(error: unknown): never {
  if (error instanceof ChainUnavailable) throw new AppError('CHAIN_UNAVAILABLE');
  throw error;
}

const requireRuntime = (): PayoutRuntime => {
  const runtime = payoutRuntime();
  if (!runtime) {
    const error = new AppError('NOT_CONFIGURED');
    error.message = 'No TON API is configured (TON_API_ROOT): transaction hashes cannot be checked';
    throw error;
  }
  return runtime;
};

/** The wallets withdrawals may be paid from: App Config's payout wallets and the hot wallet. */
async function payoutWallets(runtime: PayoutRuntime): Promise<Address[]> {
  const config = await getAppConfig();
  const wallets: Address[] = [];
  for (const text of (config.payoutWallets as string[] | undefined) ?? []) {
    try {
      wallets.push(Address.parse(text));
    } catch {
      // the console only saves addresses; an unreadable one pays nothing
    }
  }
  if (runtime.hotWallet) wallets.push(runtime.hotWallet.contract.address);
  return wallets;
}

const sameAddress = (a: Address, b: Address) => a.equals(b);

const ALREADY_PAID = (owner: { withdrawal?: Types.ObjectId | null; batch?: Types.ObjectId | null } | null) =>
  owner?.batch && !owner.withdrawal
    ? BATCH_TRANSACTION
    : `This transaction already paid another withdrawal (${String(owner?.withdrawal ?? '')})`;
const BATCH_TRANSACTION = "This transaction is a payout batch of the hot wallet: it paid that batch's withdrawals and no other";

/** Whether `tx` of the hot wallet carried one of its automated batches (known from the batch's signed body, before it lands). */
async function isBatchTransaction(runtime: PayoutRuntime, from: Address, tx: Transaction): Promise<boolean> {
  if (!runtime.hotWallet || !from.equals(runtime.hotWallet.contract.address) || !tx.inMessage) return false;
  return !!(await PayoutBatchModel.exists({ bodyHash: tx.inMessage.body.hash().toString('hex') }));
}

/**
 * Checks that the transaction `hash` paid this withdrawal and that the payment arrived: sent from one of the payout
 * wallets, it carries this amount of this coin (TON, or a jetton transfer of this coin's master) to this withdrawal's
 * address in an out-message no other withdrawal was paid by, and the chain shows that message taken: for TON the
 * destination's transaction kept it (nothing bounced back), for a jetton both the payer's jetton wallet's transfer and
 * the destination jetton wallet's internal transfer succeeded. Returns the transaction's hash and the paying message's;
 * throws BAD_INPUT on `txHash` saying exactly what did not match, or CHAIN_UNAVAILABLE.
 */
async function checkManualPayment(
  withdrawal: WithdrawalDocument,
  coin: CoinRow,
  typed: string,
): Promise<{ hash: string; message: string }> {
  const hash = normaliseTxHash(typed);
  if (!hash) throw badInput({ txHash: 'A transaction hash: 64 hex digits (or 44 base64 characters), as tonviewer shows it' });
  const used = await usedBy(hash);
  if (used && String(used.withdrawal) !== String(withdrawal._id)) throw badInput({ txHash: ALREADY_PAID(used) });

  const runtime = requireRuntime();
  const wallets = await payoutWallets(runtime);
  if (!wallets.length) throw badInput({ txHash: 'No payout wallet is configured: add the wallets you pay from in App Config' });

  let tx: Transaction | null = null;
  let from: Address | null = null;
  try {
    for (const wallet of wallets) {
      tx = await findTransaction(runtime.chain, wallet, hash);
      if (tx) {
        from = wallet;
        break;
      }
    }
  } catch (error) {
    chainDown(error);
  }
  if (!tx || !from)
    throw badInput({
      txHash: 'No transaction with this hash was sent from the payout wallets (it is not on chain, or it came from another wallet)',
    });
  if (!succeeded(tx)) throw badInput({ txHash: 'This transaction failed on chain: it paid nothing' });
  if (await isBatchTransaction(runtime, from, tx)) throw badInput({ txHash: BATCH_TRANSACTION });

  const to = Address.parse(withdrawal.address);
  const expected = chainUnits(BigInt(withdrawal.amount), coin.decimals);
  const want = describeAmount(BigInt(withdrawal.amount), coin.symbol);
  const messages = sentMessages(tx);
  if (!messages.length) throw badInput({ txHash: 'This transaction sends no payment' });

  let paying: SentMessage[];
  if (coin.network === 'ton') {
    const toPlayer = messages.filter(({ message }) => message.info.type === 'internal' && sameAddress(message.info.dest, to));
    if (!toPlayer.length) {
      const jetton = messages.some(({ message }) => readJettonTransfer(message.body));
      throw badInput({
        txHash: jetton ? `This transaction moves a jetton, not ${coin.symbol}` : `This transaction sends nothing to ${withdrawal.address}`,
      });
    }
    paying = toPlayer.filter(({ message }) => message.info.type === 'internal' && message.info.value.coins === expected);
    if (!paying.length) {
      const first = toPlayer[0]!.message;
      const sent = first.info.type === 'internal' ? first.info.value.coins : 0n;
      throw badInput({
        txHash: `This transaction sends ${formatChainUnits(sent, coin.decimals)} ${coin.symbol} to this address, not ${want}`,
      });
    }
  } else {
    const transfers = messages.flatMap((sent) => {
      const transfer = readJettonTransfer(sent.message.body);
      return transfer && sent.message.info.type === 'internal' ? [{ ...transfer, via: sent.message.info.dest, sent }] : [];
    });
    if (!transfers.length) throw badInput({ txHash: `This transaction is no jetton transfer: it does not move ${coin.symbol}` });
    let ours: Address;
    try {
      ours = await jettonWalletOf(runtime.chain, Address.parse(coin.jettonMaster), from);
    } catch (error) {
      chainDown(error);
    }
    const ofThisCoin = transfers.filter((transfer) => sameAddress(transfer.via, ours));
    if (!ofThisCoin.length) throw badInput({ txHash: `This transaction transfers another jetton, not ${coin.symbol}` });
    const toPlayer = ofThisCoin.filter((transfer) => sameAddress(transfer.destination, to));
    if (!toPlayer.length) throw badInput({ txHash: `This transaction sends ${coin.symbol} to another address, not ${withdrawal.address}` });
    paying = toPlayer.filter((transfer) => transfer.amount === expected).map((transfer) => transfer.sent);
    if (!paying.length) {
      throw badInput({
        txHash: `This transaction sends ${formatChainUnits(toPlayer[0]!.amount, coin.decimals)} ${coin.symbol} to this address, not ${want}`,
      });
    }
  }

  // one message pays one withdrawal: the first of the matching ones that paid no other
  let chosen: SentMessage | null = null;
  let owner: Awaited<ReturnType<typeof usedBy>> = null;
  for (const candidate of paying) {
    const record = await usedBy(candidate.hash);
    if (!record || String(record.withdrawal) === String(withdrawal._id)) {
      chosen = candidate;
      break;
    }
    owner ??= record;
  }
  if (!chosen) throw badInput({ txHash: ALREADY_PAID(owner) });

  let arrival: Arrival;
  try {
    arrival =
      coin.network === 'ton'
        ? await tonArrival(runtime.chain, chosen)
        : await jettonArrival(runtime.chain, chosen, {
            theirs: await jettonWalletOf(runtime.chain, Address.parse(coin.jettonMaster), to),
            amount: expected,
            symbol: coin.symbol,
          });
  } catch (error) {
    chainDown(error);
  }
  if (arrival.state === 'in-flight') throw badInput({ txHash: 'The payment has not reached the destination yet: try again in a minute' });
  if (arrival.state === 'failed') throw badInput({ txHash: `${arrival.reason}: it paid nothing` });
  return { hash, message: chosen.hash };
}

export type WithdrawalDecision = { status: 'done'; txHash: string } | { status: 'approved' } | { status: 'rejected'; rejectReason: string };

/**
 * An operator's decision from the console: paid by hand (the hash is checked on chain first, and a hash pays
 * one withdrawal only), approved for the hot wallet, or rejected (refunded).
 */
export async function decideWithdrawal({ withdrawalId, review, accountId, now }: DecisionRequest<WithdrawalDecision>) {
  const withdrawal = await WithdrawalModel.findById(withdrawalId);
  if (!withdrawal) throw new AppError('NOT_FOUND');
  if (review.status === 'approved') {
    // a frozen or banned player's withdrawals are held: nothing is queued for the hot wallet until they are active again
    const hold = await holdOf(withdrawal.user);
    if (hold)
      throw forbidden(
        `The player is ${hold.code === 'ACCOUNT_BANNED' ? 'banned' : 'frozen'} (${hold.reason}): their withdrawals wait. Reject it to give the amount back`,
      );
    // nor while they owe a claw-back, nor while their risk holds their payouts (App Config's risk.holdPayoutsFrom)
    await requireNoDebt(withdrawal.user);
    await requireNoRiskHold(withdrawal.user);
    return approveWithdrawal(withdrawal, accountId, now);
  }
  if (review.status === 'rejected') return processWithdrawal({ withdrawalId, review, accountId, now });

  if (!['pending', 'approved'].includes(withdrawal.status)) throw new AppError('WITHDRAWAL_PROCESSED');
  // never check (nor mark paid) what was never taken from the balance: INSUFFICIENT_BALANCE, and it stays pending
  await ensureAmountTaken(withdrawal);
  const coin = await findCoin(withdrawal.coin);
  if (!coin) throw new AppError('NOT_FOUND');
  const { hash, message } = await checkManualPayment(withdrawal, coin, review.txHash).catch(async (error: unknown) => {
    // it stays as it was, and says why: the hash could not be checked
    if (error instanceof AppError && error.code === 'CHAIN_UNAVAILABLE') {
      await WithdrawalModel.updateOne(
        { _id: withdrawal._id },
        { $set: { chainNote: `The TON network could not be reached at ${now.toISOString()}: the hash ${review.txHash} was not checked` } },
      );
    }
    throw error;
  });
  // one message pays one withdrawal, and one hash pays one withdrawal, however many operators type it at once
  if (!(await claimHash(message, 'message', { withdrawal: withdrawal._id })))
    throw badInput({ txHash: ALREADY_PAID(await usedBy(message)) });
  if (!(await claimHash(hash, 'tx', { withdrawal: withdrawal._id }))) {
    await releaseHashes([message], withdrawal._id);
    throw badInput({ txHash: ALREADY_PAID(await usedBy(hash)) });
  }
  try {
    const done = await processWithdrawal({ withdrawalId, review: { status: 'done', txHash: hash }, accountId, now });
    if (done.chainNote) await WithdrawalModel.updateOne({ _id: done._id }, { $set: { chainNote: '' } });
    return done;
  } catch (error) {
    // the decision did not stand: the hash and its message may pay something else
    const current = await WithdrawalModel.findById(withdrawal._id, { status: 1, txHash: 1 }).lean();
    if (!(current?.status === 'done' && current.txHash === hash)) await releaseHashes([hash, message], withdrawal._id);
    throw error;
  }
}

/** Approves a pending withdrawal for the hot wallet; its amount is taken first if it was not yet. */
async function approveWithdrawal(given: WithdrawalDocument, accountId: Id, now: Date) {
  let withdrawal = given;
  if (!payoutRuntime()?.hotWallet) {
    const error = new AppError('NOT_CONFIGURED');
    error.message = 'Automated payouts are off (no hot wallet): pay the withdrawal and enter its transaction hash';
    throw error;
  }
  if (withdrawal.status !== 'pending') throw new AppError('WITHDRAWAL_PROCESSED');
  await ensureAmountTaken(withdrawal);
  const coin = await findCoin(withdrawal.coin, { symbol: 1, payoutApprovalAbove: 1 });
  const threshold = BigInt((coin?.payoutApprovalAbove as number | undefined) ?? 0);
  if (threshold > 0n && BigInt(withdrawal.amount) > threshold) {
    // above the coin's threshold two different operators approve: the first one's approval waits for the second
    if (!withdrawal.firstApprovedBy) {
      const first = await WithdrawalModel.findOneAndUpdate(
        { _id: withdrawal._id, status: 'pending', firstApprovedBy: null },
        { $set: { firstApprovedBy: objectId(accountId), firstApprovedAt: now } },
        { returnDocument: 'after' },
      );
      if (first) return first;
      withdrawal = (await WithdrawalModel.findById(withdrawal._id)) ?? withdrawal;
    }
    if (String(withdrawal.firstApprovedBy) === String(accountId)) {
      throw forbidden(
        `A withdrawal above ${describeAmount(threshold, coin?.symbol ?? '')} needs a second operator's approval; you gave the first`,
      );
    }
    // the second approval comes from a second person: not an account the first approver made or empowered
    if (withdrawal.firstApprovedBy)
      await assertIndependentApprover(String(withdrawal.firstApprovedBy), String(accountId), 'this withdrawal');
  }
  const approved = await WithdrawalModel.findOneAndUpdate(
    { _id: withdrawal._id, status: 'pending' },
    { $set: { status: 'approved', approvedBy: objectId(accountId), approvedAt: now, chainNote: '' } },
    { returnDocument: 'after' },
  );
  if (!approved) throw new AppError('WITHDRAWAL_PROCESSED');
  return approved;
}
