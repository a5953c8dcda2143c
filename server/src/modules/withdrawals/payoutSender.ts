/**
 * The hot wallet's sender: approved withdrawals batched into signed W5 messages, sent until they land or provably
 * expire, confirmed from the destinations' transactions. The recovery sweep runs it under its lease.
 */
import {
  Address,
  beginCell,
  Cell,
  comment,
  external,
  internal,
  SendMode,
  storeMessage,
  toNano,
  type MessageRelaxed,
  type Transaction,
} from '@ton/core';
import { Types } from 'mongoose';
import { ChainUnavailable } from '../../lib/ton/tonChain';
import { faultPoint } from '../../lib/faults';
import type { Logger } from '../../lib/logger';
import { objectId } from '../../db/ids';
import { findCoin, type CoinRow } from '../coins/giftCoins.service';
import { getAppConfig, setAppConfigFields } from '../config/config.service';
import {
  chainUnits,
  findByInboundBody,
  internalOut,
  jettonTransferBody,
  jettonArrival,
  jettonWalletOf,
  payoutRuntime,
  sentMessages,
  tonArrival,
  walletSeqno,
  type Arrival,
  type PayoutRuntime,
  type SentMessage,
} from './chainPayments';
import { claimHash } from './usedHashes';
import { heldPlayers } from '../ledger/ledger.service';
import { playersOwing } from '../clawbacks/clawBack.service';
import { riskHeldAmong, riskHoldNote } from './riskHold';
import { PayoutBatchModel } from './payoutBatch.model';
import { WithdrawalModel, type WithdrawalDocument } from './withdrawal.model';
import { decideWithdrawal } from './withdrawals.kinds';
import { AppError } from '../../lib/errors';

/** Why an approved withdrawal waits in the queue while its player owes a claw-back. */
const OWES_CLAW_BACK = 'Waits: the player owes a claw-back. The hot wallet pays it once the claw-back is settled (or reject it)';

/** W5 sends at most 255 messages per external message. */
const MAX_BATCH = 255;
/** How long a signed batch stays valid, in seconds of chain time. */
const BATCH_TTL_SECONDS = 120;
/** TON attached to each jetton transfer (the jetton wallet's gas, the recipient wallet's deployment, the 1 nanoton forward). */
const JETTON_TRANSFER_TON = toNano('0.05');
/** Kept aside for the wallet's own fees per message. */
const FEE_RESERVE_PER_MESSAGE = toNano('0.01');

/** The decimal query id of a withdrawal's jetton transfer: the last 8 bytes of its id, unique per withdrawal. */
const queryIdOf = (id: Types.ObjectId) => BigInt(`0x${String(id).slice(-16)}`);
const commentOf = (id: Types.ObjectId) => `Gift Rewards withdrawal ${String(id)}`;

interface Planned {
  withdrawal: WithdrawalDocument;
  message: MessageRelaxed;
  tonNeeded: bigint;
  jetton?: { master: string; amount: bigint };
}

/** The internal message that pays one withdrawal from the hot wallet. */
async function planPayout(runtime: PayoutRuntime, withdrawal: WithdrawalDocument, coin: CoinRow): Promise<Planned> {
  const hot = runtime.hotWallet!.contract.address;
  const to = Address.parse(withdrawal.address);
  const amount = chainUnits(BigInt(withdrawal.amount), coin.decimals);
  if (coin.network === 'ton') {
    const body = comment(commentOf(withdrawal._id));
    return { withdrawal, message: internal({ to, value: amount, bounce: false, body }), tonNeeded: amount + FEE_RESERVE_PER_MESSAGE };
  }
  const master = Address.parse(coin.jettonMaster);
  const ourJettonWallet = await jettonWalletOf(runtime.chain, master, hot);
  const body = jettonTransferBody({
    queryId: queryIdOf(withdrawal._id),
    amount,
    destination: to,
    responseTo: hot,
    text: commentOf(withdrawal._id),
  });
  return {
    withdrawal,
    message: internal({ to: ourJettonWallet, value: JETTON_TRANSFER_TON, bounce: true, body }),
    tonNeeded: JETTON_TRANSFER_TON + FEE_RESERVE_PER_MESSAGE,
    jetton: { master: coin.jettonMaster, amount },
  };
}

export interface PayoutRoundReport {
  batched: number;
  confirmed: number;
  bounced: number;
  requeued: number;
  /** 'paused', or why part of the queue was not sent (every reason, one sentence each), when something waits. */
  stopped?: string;
}

/**
 * One round of the hot wallet's sender; the payouts job runs it under its lease, so one instance sends at a
 * time. It finishes the open batch first (confirms what landed, refunds bounces, re-queues what provably expired,
 * re-sends the rest unchanged), and only then signs the next one.
 */
export async function runPayoutRound({
  logger,
  holding = () => true,
  sendNew = true,
}: {
  logger?: Logger;
  /** false: only the open batches are moved on (confirmed, re-sent, re-queued); nothing new is signed. */
  sendNew?: boolean;
  /**
   * Whether this instance still holds the payouts job's lease: checked before each step that writes, so a round whose lease
   * ran out under it (a long pause) stops there. A step already under way when it runs out is still safe: every write
   * is conditional on the state it moves on from, and a batch can land once only (its seqno).
   */
  holding?: () => boolean;
} = {}): Promise<PayoutRoundReport> {
  const report: PayoutRoundReport = { batched: 0, confirmed: 0, bounced: 0, requeued: 0 };
  const runtime = payoutRuntime();
  if (!runtime?.hotWallet || !holding()) return report;
  let config: Awaited<ReturnType<typeof getAppConfig>> | null = null;
  try {
    // what a round that died before signing had claimed goes back to the queue
    await releaseUnsent();
    const open = await PayoutBatchModel.find({ state: { $in: ['signed', 'sent', 'landed'] } }).sort({ createdAt: 1 });
    for (const batch of open) {
      if (!holding()) return report;
      await advanceBatch(runtime, batch, report);
    }
    if (!sendNew || open.some((batch) => batch.state === 'signed' || batch.state === 'sent')) return report;
    config = await getAppConfig();
    if (config.payoutsPaused) {
      report.stopped = 'paused';
      return report;
    }
    await sendNextBatch(runtime, report, holding, logger);
  } catch (error) {
    if (!(error instanceof ChainUnavailable)) throw error;
    report.stopped = error.message;
    logger?.warn({ err: error }, 'payouts: the TON API could not be reached');
  }
  // kept where every instance's console reads it, and written only when it changes
  const stopped = report.stopped && report.stopped !== 'paused' ? report.stopped : '';
  config ??= await getAppConfig();
  if ((config.payoutsStopped ?? '') !== stopped) {
    await setAppConfigFields({ payoutsStopped: stopped });
    if (stopped) logger?.warn({ stopped }, 'payouts: part of the queue waits');
  }
  return report;
}

/**
 * What a round that died (or stalled past its lease) left unsent goes back to the queue. With the lease, no other
 * round runs now: a batch still claiming was never signed, so nothing of it can land; a withdrawal on its way in a
 * batch that is not signed, sent, landed or confirmed was never sent. A stalled round that wakes up after this
 * finds its batch expired and sends nothing (its signing is conditional on the batch still claiming).
 */
async function releaseUnsent() {
  await PayoutBatchModel.updateMany({ state: 'claiming' }, { $set: { state: 'expired', finishedAt: new Date() } });
  const claimed = await WithdrawalModel.find({ status: 'sending' }, { payout: 1 }).lean();
  const batchIds = [...new Set(claimed.flatMap((w) => (w.payout?.batch ? [String(w.payout.batch)] : [])))];
  const live = new Set(
    (
      await PayoutBatchModel.find({ _id: { $in: batchIds }, state: { $in: ['signed', 'sent', 'landed', 'confirmed'] } }, { _id: 1 }).lean()
    ).map((b) => String(b._id)),
  );
  const dead = batchIds.filter((id) => !live.has(id));
  const unbatched = claimed.filter((w) => !w.payout?.batch).map((w) => w._id);
  if (dead.length || unbatched.length) {
    await WithdrawalModel.updateMany(
      { status: 'sending', $or: [{ 'payout.batch': { $in: dead.map((id) => objectId(id)) } }, { _id: { $in: unbatched } }] },
      { $set: { status: 'approved', 'payout.batch': null, 'payout.state': '', 'payout.batchedAt': null } },
    );
  }
}

async function sendNextBatch(runtime: PayoutRuntime, report: PayoutRoundReport, holding: () => boolean, logger?: Logger) {
  const hot = runtime.hotWallet!;
  // a player frozen or banned after their withdrawal was approved, or who owes a claw-back since: it waits in the queue
  // until they are active again and the claw-back is settled
  const owing = await playersOwing();
  if (owing.length) {
    await WithdrawalModel.updateMany(
      { status: 'approved', user: { $in: owing }, chainNote: { $ne: OWES_CLAW_BACK } },
      { $set: { chainNote: OWES_CLAW_BACK } },
    );
  }
  // a player whose risk rose to App Config's hold level after the approval: it waits until an operator clears their risk
  const riskHeld = await riskHeldAmong(await WithdrawalModel.distinct('user', { status: 'approved' }));
  for (const [player, risk] of riskHeld) {
    const note = riskHoldNote(risk);
    await WithdrawalModel.updateMany(
      { status: 'approved', user: objectId(player), chainNote: { $ne: note } },
      { $set: { chainNote: note } },
    );
  }
  const held = [...(await heldPlayers()).map((hold) => hold._id), ...owing, ...[...riskHeld.keys()].map(objectId)];
  const queue = await WithdrawalModel.find({ status: 'approved', ...(held.length ? { user: { $nin: held } } : {}) })
    .sort({ approvedAt: 1, _id: 1 })
    .limit(MAX_BATCH);
  if (!queue.length) return;

  const account = await runtime.chain.account(hot.contract.address);
  const paidToday = await paidTodayByCoin();
  const coins = new Map<string, CoinRow | null>();
  const planned: Planned[] = [];
  let tonLeft = account.balance;
  const jettonLeft = new Map<string, bigint>();
  const short: string[] = [];
  const capped = new Set<string>();
  const unpreparable = new Set<string>();
  for (const withdrawal of queue) {
    const key = String(withdrawal.coin);
    if (!coins.has(key)) coins.set(key, await findCoin(withdrawal.coin));
    const coin = coins.get(key);
    if (!coin) continue;
    const cap = BigInt((coin.payoutDailyCap as number | undefined) ?? 0);
    const today = paidToday.get(key) ?? 0n;
    if (cap > 0n && today + BigInt(withdrawal.amount) > cap) {
      capped.add(coin.symbol);
      continue;
    }
    let plan: Planned;
    try {
      plan = await planPayout(runtime, withdrawal, coin);
      if (plan.jetton && !jettonLeft.has(plan.jetton.master)) {
        const ours = await jettonWalletOf(runtime.chain, Address.parse(plan.jetton.master), hot.contract.address);
        jettonLeft.set(plan.jetton.master, await runtime.chain.jettonBalance(ours));
      }
    } catch (error) {
      // one coin the chain cannot answer for (a master that is not there) does not hold up the others
      if (!(error instanceof ChainUnavailable)) throw error;
      unpreparable.add(coin.symbol);
      await WithdrawalModel.updateOne(
        { _id: withdrawal._id },
        { $set: { chainNote: `Could not be prepared for payout: ${error.message}` } },
      );
      continue;
    }
    const jettonsHere = plan.jetton ? jettonLeft.get(plan.jetton.master)! : 0n;
    if (plan.tonNeeded > tonLeft || (plan.jetton && plan.jetton.amount > jettonsHere)) {
      short.push(plan.jetton ? coin.symbol : 'TON');
      continue;
    }
    tonLeft -= plan.tonNeeded;
    paidToday.set(key, today + BigInt(withdrawal.amount));
    if (plan.jetton) jettonLeft.set(plan.jetton.master, jettonsHere - plan.jetton.amount);
    planned.push(plan);
  }
  const reasons = [
    ...(unpreparable.size ? [`Payouts of ${[...unpreparable].join(', ')} could not be prepared: the TON API did not answer for them`] : []),
    ...(capped.size ? [`Today's payout cap is reached for ${[...capped].join(', ')}: the rest waits for tomorrow (UTC)`] : []),
    ...(short.length ? [`The hot wallet cannot cover the next payouts (${[...new Set(short)].join(', ')}): fund it`] : []),
  ];
  // every reason at once: an operator who funds the wallet learns of the cap now, not on the next round
  if (reasons.length) report.stopped = reasons.join('. ');
  if (short.length) logger?.warn({ short: [...new Set(short)] }, 'payouts: the hot wallet cannot cover the queue');
  // the chain was asked for balances and addresses meanwhile: a round whose lease ran out under it claims nothing
  if (!planned.length || !holding()) return;

  const seqno = await walletSeqno(runtime.chain, hot.contract.address, account.state);
  const batchId = new Types.ObjectId();
  const validUntil = account.chainTime + BATCH_TTL_SECONDS;
  const ids = planned.map((plan) => plan.withdrawal._id);
  // recorded first, then its withdrawals claimed, then signed: a round that dies in between leaves a batch still
  // claiming, which the next round expires and whose withdrawals it queues again (releaseUnsent)
  await PayoutBatchModel.create({
    _id: batchId,
    wallet: hot.contract.address.toRawString(),
    seqno,
    validUntil,
    afterLt: account.lastTransaction?.lt ?? '0',
    withdrawals: ids,
    state: 'claiming',
  });
  await WithdrawalModel.updateMany(
    { _id: { $in: ids }, status: 'approved' },
    { $set: { status: 'sending', 'payout.batch': batchId, 'payout.state': 'in-batch', 'payout.batchedAt': new Date(), chainNote: '' } },
  );
  const claimed = new Set(
    (await WithdrawalModel.find({ _id: { $in: ids }, status: 'sending', 'payout.batch': batchId }, { _id: 1 }).lean()).map((w) =>
      String(w._id),
    ),
  );
  const messages = planned.filter((plan) => claimed.has(String(plan.withdrawal._id)));
  await faultPoint('payout:claimed');
  for (const plan of messages) {
    await WithdrawalModel.updateOne(
      { _id: plan.withdrawal._id },
      { $set: { 'payout.bodyHash': plan.message.body.hash().toString('hex'), 'payout.queryId': String(queryIdOf(plan.withdrawal._id)) } },
    );
  }
  if (!messages.length) {
    await PayoutBatchModel.updateOne({ _id: batchId, state: 'claiming' }, { $set: { state: 'expired', finishedAt: new Date() } });
    return;
  }
  const body = hot.contract.createTransfer({
    seqno,
    secretKey: hot.secretKey,
    timeout: validUntil,
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    messages: messages.map((plan) => plan.message),
  });
  const message = beginCell()
    .store(storeMessage(external({ to: hot.contract.address, init: account.state === 'active' ? undefined : hot.contract.init, body })))
    .endCell();
  // not signed after the lease ran out: the next holder's round expires this batch and queues its withdrawals again
  if (!holding()) return;
  const batch = await PayoutBatchModel.findOneAndUpdate(
    { _id: batchId, state: 'claiming' },
    {
      $set: {
        message: message.toBoc().toString('base64'),
        bodyHash: body.hash().toString('hex'),
        withdrawals: messages.map((plan) => plan.withdrawal._id),
        state: 'signed',
      },
    },
    { returnDocument: 'after' },
  );
  // released by another round while this one stalled past its lease: nothing was sent, and nothing will be
  if (!batch) return;
  await faultPoint('payout:after-record');
  report.batched += messages.length;
  await sendBatch(runtime, batch);
}

type BatchDocument = ReturnType<(typeof PayoutBatchModel)['hydrate']>;

/** What the hot wallet took into batches since the start of the UTC day, per coin (micro-units); bounced ones are given back. */
export async function paidTodayByCoin(now = new Date()): Promise<Map<string, bigint>> {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const rows = await WithdrawalModel.aggregate<{ _id: unknown; total: number }>([
    { $match: { 'payout.batchedAt': { $gte: dayStart }, status: { $in: ['sending', 'done'] } } },
    { $group: { _id: '$coin', total: { $sum: '$amount' } } },
  ]);
  return new Map(rows.map((row) => [String(row._id), BigInt(row.total)]));
}

async function sendBatch(runtime: PayoutRuntime, batch: BatchDocument) {
  await runtime.chain.sendExternal(Cell.fromBoc(Buffer.from(batch.message, 'base64'))[0]!);
  await faultPoint('payout:after-send');
  await PayoutBatchModel.updateOne({ _id: batch._id, state: { $in: ['signed', 'sent'] } }, { $set: { state: 'sent' }, $inc: { sends: 1 } });
  await WithdrawalModel.updateMany(
    { 'payout.batch': batch._id, status: 'sending', 'payout.state': 'in-batch' },
    { $set: { 'payout.state': 'sent' } },
  );
}

/** Moves an open batch on by what the chain shows; every step is conditional, so a repeat after a crash is harmless. */
async function advanceBatch(runtime: PayoutRuntime, batch: BatchDocument, report: PayoutRoundReport) {
  const wallet = runtime.hotWallet!.contract.address;
  if (batch.state === 'signed' || batch.state === 'sent') {
    const landed = await findByInboundBody(runtime.chain, wallet, batch.bodyHash, BigInt(batch.afterLt));
    if (landed) {
      await recordLanding(batch, landed, report);
    } else {
      const account = await runtime.chain.account(wallet);
      const seqno = await walletSeqno(runtime.chain, wallet, account.state);
      // provably never landing: its time is over, or its seqno was used by something else; the check for its
      // transaction above came first, so nothing of it was paid
      if (account.chainTime > batch.validUntil || seqno > batch.seqno) {
        const again = await findByInboundBody(runtime.chain, wallet, batch.bodyHash, BigInt(batch.afterLt));
        if (again) return recordLanding(batch, again, report);
        const expired = await PayoutBatchModel.updateOne(
          { _id: batch._id, state: { $in: ['signed', 'sent'] } },
          { $set: { state: 'expired', finishedAt: new Date() } },
        );
        if (expired.modifiedCount) {
          const back = await WithdrawalModel.updateMany(
            { 'payout.batch': batch._id, status: 'sending' },
            { $set: { status: 'approved', 'payout.batch': null, 'payout.state': 'expired', 'payout.batchedAt': null } },
          );
          report.requeued += back.modifiedCount;
        }
        return;
      }
      await sendBatch(runtime, batch);
      return;
    }
  }
  const current = await PayoutBatchModel.findById(batch._id);
  if (current?.state === 'landed') await confirmBatch(runtime, current, report);
}

async function recordLanding(batch: BatchDocument, tx: Transaction, report: PayoutRoundReport) {
  const txHash = tx.hash().toString('hex');
  // the batch's transaction paid its own withdrawals and nothing else: no operator can type it for another one
  await claimHash(txHash, 'tx', { batch: batch._id });
  const sent = new Set(internalOut(tx).map((message) => message.body.hash().toString('hex')));
  const items = await WithdrawalModel.find({ 'payout.batch': batch._id, status: 'sending' });
  for (const withdrawal of items) {
    if (sent.has(withdrawal.payout?.bodyHash ?? '')) {
      await WithdrawalModel.updateOne({ _id: withdrawal._id, status: 'sending' }, { $set: { txHash, 'payout.state': 'sent' } });
    } else {
      // the wallet skipped this message (its action failed): this batch's seqno is spent, so it cannot pay it any more
      const back = await WithdrawalModel.updateOne(
        { _id: withdrawal._id, status: 'sending', 'payout.batch': batch._id },
        { $set: { status: 'approved', 'payout.batch': null, 'payout.state': 'unsent', 'payout.batchedAt': null } },
      );
      report.requeued += back.modifiedCount;
    }
  }
  await PayoutBatchModel.updateOne(
    { _id: batch._id, state: { $in: ['signed', 'sent'] } },
    { $set: { state: 'landed', txHash, txLt: tx.lt.toString(), landedAt: new Date() } },
  );
}

/**
 * A landed batch's withdrawals turn done when the chain shows their payment arrived (the destination kept the TON; both
 * jetton wallets ran the transfer), each paying message recorded as used first. One that bounced or failed is not done:
 * it goes back to the operators' queue with the reason, to approve again or reject (which refunds the player).
 */
async function confirmBatch(runtime: PayoutRuntime, batch: BatchDocument, report: PayoutRoundReport) {
  const items = await WithdrawalModel.find({ 'payout.batch': batch._id, status: 'sending' });
  const wallet = runtime.hotWallet!.contract.address;
  const landed = items.length ? await batchTransaction(runtime, wallet, batch) : null;
  const sent = landed ? sentMessages(landed) : [];
  for (const withdrawal of items) {
    const coin = await findCoin(withdrawal.coin);
    if (!coin) continue;
    const message = sent.find((out) => out.message.body.hash().toString('hex') === withdrawal.payout?.bodyHash);
    if (!message) continue;
    const arrival = await arrivalOf(runtime, withdrawal, coin, message);
    if (arrival.state === 'in-flight') continue;
    if (arrival.state === 'arrived') {
      if (!(await claimHash(message.hash, 'message', { withdrawal: withdrawal._id }))) {
        await WithdrawalModel.updateOne(
          { _id: withdrawal._id, status: 'sending' },
          { $set: { chainNote: `Its payment message ${message.hash} is recorded as paying another withdrawal: check it on chain` } },
        );
        continue;
      }
      await settle(withdrawal);
      report.confirmed++;
    } else {
      await faultPoint('payout:before-confirm');
      // what to do next the console says in the operator's language; a payment the destination kept is said here
      const kept = arrival.returned ? '' : ' The destination kept what it was sent: check it on chain before paying again.';
      const back = await WithdrawalModel.updateOne(
        { _id: withdrawal._id, status: 'sending', 'payout.batch': batch._id },
        {
          $set: {
            status: 'pending',
            txHash: '',
            approvedBy: null,
            approvedAt: null,
            firstApprovedBy: null,
            firstApprovedAt: null,
            'payout.batch': null,
            'payout.state': 'bounced',
            'payout.batchedAt': null,
            chainNote: `The automated payout in transaction ${String(withdrawal.txHash || batch.txHash)} was not paid. ${arrival.reason}.${kept}`,
          },
        },
      );
      report.bounced += back.modifiedCount;
    }
  }
  if (!(await WithdrawalModel.exists({ 'payout.batch': batch._id, status: 'sending' }))) {
    await PayoutBatchModel.updateOne({ _id: batch._id, state: 'landed' }, { $set: { state: 'confirmed', finishedAt: new Date() } });
  }
}

/** The hot wallet's transaction that carried a landed batch. */
async function batchTransaction(runtime: PayoutRuntime, wallet: Address, batch: BatchDocument): Promise<Transaction | null> {
  const hash = Buffer.from(batch.txHash, 'hex').toString('base64');
  const [tx] = await runtime.chain.transactions(wallet, { limit: 1, before: { lt: batch.txLt, hash } });
  if (tx?.hash().toString('hex') === batch.txHash) return tx;
  return findByInboundBody(runtime.chain, wallet, batch.bodyHash, BigInt(batch.afterLt));
}

/** Records a withdrawal the chain shows paid as done, once (an operator's decision taken meanwhile stands instead). */
async function settle(withdrawal: WithdrawalDocument) {
  await faultPoint('payout:before-confirm');
  try {
    await decideWithdrawal(withdrawal, { status: 'done', from: ['sending'], processedAt: new Date(), payoutState: 'confirmed' });
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'WITHDRAWAL_PROCESSED')) throw error;
  }
}

/** Where one payout stands on chain: its message from the batch's transaction followed to where it was taken. */
async function arrivalOf(runtime: PayoutRuntime, withdrawal: WithdrawalDocument, coin: CoinRow, message: SentMessage): Promise<Arrival> {
  if (coin.network === 'ton') return tonArrival(runtime.chain, message);
  const master = Address.parse(coin.jettonMaster);
  return jettonArrival(runtime.chain, message, {
    theirs: await jettonWalletOf(runtime.chain, master, Address.parse(withdrawal.address)),
    amount: chainUnits(BigInt(withdrawal.amount), coin.decimals),
    symbol: coin.symbol,
  });
}
