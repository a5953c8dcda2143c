/**
 * The hot wallet's sender: approved withdrawals batched into signed W5 messages, sent until they land or provably
 * expire, confirmed from the destinations' transactions. A batch's life is an operation of the money engine (kind
 * `payout-batch`, ledger/engine.ts), recorded once under the batch's key with what its steps need (seqno, valid_until,
 * the withdrawals planned); the engine runs its steps in order, each conditional on where the batch stands, so a crash
 * anywhere is finished by the next payouts pass running the same steps:
 * 1. `claim`: the batch is written (claiming) and its withdrawals taken from the queue (approved → sending), a player held
 *    since it was planned left out;
 * 2. `sign`: each payout's message planned and its hash recorded on the withdrawal, the external message signed with the
 *    recorded seqno and valid_until and recorded with the batch (signed), before anything is sent;
 * 3. `send`: the recorded message sent, unchanged (a second send of it is harmless: one seqno lands once);
 * 4. `settle`: waits (answers 'wait') until the chain shows the batch's transaction, re-sending the recorded message, or
 *    shows it can never land (valid_until passed or seqno spent, and it is not among the wallet's transactions): then its
 *    withdrawals go back to the queue. A landed batch's withdrawals are done when the chain shows their payment arrived
 *    (each message claimed once, its decision an engine operation that moves the amount from in flight to paid on chain);
 *    one that bounced or failed goes back to the operators, never marked paid.
 * The payouts job runs the rounds under its lease, and the steps run in its rounds alone: the engine's sweep, under another
 * lease, finds a batch's operation waiting and leaves it, so one poller asks the chain about a batch, whichever instance
 * holds the payouts lease (a dead holder's is taken over within a lease). The engine's fault points
 * (`ledger:after-record:payout-batch`, `ledger:after-step:payout-batch[:<step>]`) are this protocol's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
import { finishInterrupted, heldPlayers, runOperation, type OperationKind } from '../ledger/ledger.service';
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

const PAYOUT_BATCH = 'payout-batch';

/** What a batch's operation records: everything its steps need to finish it from the record alone. */
interface BatchRecord {
  batchId: Types.ObjectId;
  wallet: string;
  seqno: number;
  /** Unix seconds of chain time: the wallet refuses the message after it. */
  validUntil: number;
  /** The wallet's last transaction when the batch was planned: the batch's own can only come after it. */
  afterLt: string;
  /** Whether the wallet was deployed when planned; if not, the message carries its code. */
  deployed: boolean;
  /** The withdrawals planned into it; the claim takes those still approved. */
  withdrawals: Types.ObjectId[];
}

type BatchOperation = Parameters<OperationKind['steps'][number]['run']>[0];
type BatchDocument = ReturnType<(typeof PayoutBatchModel)['hydrate']>;
type HotRuntime = PayoutRuntime & { hotWallet: NonNullable<PayoutRuntime['hotWallet']> };

/** What the steps did in this process, for the rounds' reports (a round reports what happened while it ran). */
const tally = { batched: 0, confirmed: 0, bounced: 0, requeued: 0 };
/** The chain's last refusal to answer a step, for the round's report (the step itself waits). */
let chainTrouble: ChainUnavailable | null = null;

/**
 * A step that reads or writes the chain, run on the batch as stored now. A chain that does not answer makes it wait for the
 * next pass (the round then says the chain did not answer), as does a process with no hot wallet configured.
 */
function onChain(
  run: (runtime: HotRuntime, batch: BatchDocument, operation: BatchOperation) => Promise<void | 'wait'>,
): (operation: BatchOperation) => Promise<void | 'wait'> {
  return async (operation) => {
    const runtime = payoutRuntime();
    if (!runtime?.hotWallet) return 'wait';
    const batch = await PayoutBatchModel.findById((operation.data as BatchRecord).batchId);
    if (!batch) return;
    try {
      return await run(runtime as HotRuntime, batch, operation);
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      chainTrouble = error;
      return 'wait';
    }
  };
}

/** Set while a payouts round runs (under the payouts job's lease): a batch's steps run there and nowhere else. */
const inRound = new AsyncLocalStorage<true>();

/** A step run by a payouts round; anyone else (the engine's sweep) finds it waiting for the round, and asks no chain. */
function inRoundOnly(run: (operation: BatchOperation) => Promise<void | 'wait'>): (operation: BatchOperation) => Promise<void | 'wait'> {
  return async (operation) => (inRound.getStore() ? run(operation) : 'wait');
}

const payoutBatchKind: OperationKind = {
  kind: PAYOUT_BATCH,
  steps: [
    { name: 'claim', run: inRoundOnly(claimBatch) },
    { name: 'sign', run: inRoundOnly(onChain(signBatch)) },
    { name: 'send', run: inRoundOnly(onChain(sendSigned)) },
    // the send of this very pass is not repeated at once: the chain is asked whether it landed, and waited for
    {
      name: 'settle',
      run: inRoundOnly(onChain((runtime, batch, operation) => settleBatch(runtime, batch, operation.steps.includes('send')))),
    },
  ],
};

/** This module's money kind, registered at the composition root (server/src/moneyKinds.ts). */
export const payoutKinds: readonly OperationKind[] = [payoutBatchKind];

/**
 * One round of the hot wallet's sender; the payouts job runs it under its lease, so one instance plans batches at a time.
 * It finishes the open batches first (their operations' steps, from where they stopped: confirms what landed, sends bounces
 * back to the operators, re-queues what provably expired, re-sends the rest unchanged), and only then plans the next one.
 */
export async function runPayoutRound({
  logger,
  holding = () => true,
  sendNew = true,
  settleOpen = true,
}: {
  logger?: Logger;
  /** false: only the open batches are moved on (confirmed, re-sent, re-queued); nothing new is signed. */
  sendNew?: boolean;
  /**
   * false: the open batches were moved on moments ago, by a round of this pass that the chain answered throughout; the chain
   * is not asked about them again, and nothing new is signed while one is still on its way.
   */
  settleOpen?: boolean;
  /**
   * Whether this instance still holds the payouts job's lease: checked between batches and before planning, so a round
   * whose lease ran out under it (a long pause) stops there. A step already under way when it runs out is still safe: every
   * write is conditional on the state it moves on from, a batch is signed once (its record), and lands once (its seqno).
   */
  holding?: () => boolean;
} = {}): Promise<PayoutRoundReport> {
  const report: PayoutRoundReport = { batched: 0, confirmed: 0, bounced: 0, requeued: 0 };
  const runtime = payoutRuntime();
  if (!runtime?.hotWallet || !holding()) return report;
  const before = { ...tally };
  chainTrouble = null;
  let config: Awaited<ReturnType<typeof getAppConfig>> | null = null;
  try {
    config = await inRound.run(true, () => round(runtime as HotRuntime, report, { holding, sendNew, settleOpen, logger }));
  } catch (error) {
    if (!(error instanceof ChainUnavailable)) throw error;
    report.stopped = error.message;
    logger?.warn({ err: error }, 'payouts: the TON API could not be reached');
  }
  for (const key of ['batched', 'confirmed', 'bounced', 'requeued'] as const) report[key] = tally[key] - before[key];
  if (!holding()) return report;
  // kept where every instance's console reads it, and written only when it changes
  const stopped = report.stopped && report.stopped !== 'paused' ? report.stopped : '';
  config ??= await getAppConfig();
  if ((config.payoutsStopped ?? '') !== stopped) {
    await setAppConfigFields({ payoutsStopped: stopped });
    if (stopped) logger?.warn({ stopped }, 'payouts: part of the queue waits');
  }
  return report;
}

async function round(
  runtime: HotRuntime,
  report: PayoutRoundReport,
  { holding, sendNew, settleOpen, logger }: { holding: () => boolean; sendNew: boolean; settleOpen: boolean; logger?: Logger | undefined },
) {
  if (settleOpen) await settleOpenBatches(runtime, holding);
  // one batch in flight at a time: the next seqno is the wallet's once this one landed or expired
  if (!sendNew || !holding() || (await PayoutBatchModel.exists({ state: { $in: ['claiming', 'signed', 'sent'] } }))) return null;
  const config = await getAppConfig();
  if (config.payoutsPaused) {
    report.stopped = 'paused';
    return config;
  }
  await sendNextBatch(runtime, report, holding, logger);
  throwChainTrouble();
  return config;
}

/** The open batches moved on, whoever left them: an older version's, then every batch operation not done. */
async function settleOpenBatches(runtime: HotRuntime, holding: () => boolean) {
  // what an older version's round left before signing goes back to the queue
  await releaseUnsent();
  // the batches an older version left open (no operation): moved on by the same settling
  const older = await PayoutBatchModel.find({ state: { $in: ['signed', 'sent', 'landed'] }, operation: { $in: [null, ''] } }).sort({
    createdAt: 1,
  });
  for (const batch of older) {
    if (!holding()) return;
    await settleBatch(runtime, batch, true);
  }
  if (!holding()) return;
  // every batch's operation not done, whoever left it (a round that died, this one's last pass): its steps from where they stopped
  await finishInterrupted(0, [PAYOUT_BATCH]);
  throwChainTrouble();
}

/** A step of this round waited because the chain did not answer: the round says so (and plans nothing new). */
function throwChainTrouble() {
  if (chainTrouble) throw chainTrouble;
}

/**
 * What an older version's round left unsent goes back to the queue: its batches still claiming were never signed (a batch
 * of the engine's is never abandoned: its operation signs or expires it). A withdrawal on its way in a batch that expired,
 * or in none, was never sent, or provably never landed.
 */
async function releaseUnsent() {
  await PayoutBatchModel.updateMany(
    { state: 'claiming', operation: { $in: [null, ''] } },
    { $set: { state: 'expired', finishedAt: new Date() } },
  );
  const claimed = await WithdrawalModel.find({ status: 'sending' }, { payout: 1 }).lean();
  const batchIds = [...new Set(claimed.flatMap((w) => (w.payout?.batch ? [String(w.payout.batch)] : [])))];
  const live = new Set(
    (await PayoutBatchModel.find({ _id: { $in: batchIds }, state: { $ne: 'expired' } }, { _id: 1 }).lean()).map((b) => String(b._id)),
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

/**
 * The players whose approved withdrawals wait in the queue now: frozen or banned after the approval, owing a claw-back since,
 * or whose risk rose to App Config's hold level. `note`: say why on their withdrawals (the planning round does).
 */
async function heldForPayout({ note }: { note: boolean }): Promise<Types.ObjectId[]> {
  const owing = await playersOwing();
  if (owing.length && note) {
    await WithdrawalModel.updateMany(
      { status: 'approved', user: { $in: owing }, chainNote: { $ne: OWES_CLAW_BACK } },
      { $set: { chainNote: OWES_CLAW_BACK } },
    );
  }
  const riskHeld = await riskHeldAmong(await WithdrawalModel.distinct('user', { status: 'approved' }));
  if (note) {
    for (const [player, risk] of riskHeld) {
      const text = riskHoldNote(risk);
      await WithdrawalModel.updateMany(
        { status: 'approved', user: objectId(player), chainNote: { $ne: text } },
        { $set: { chainNote: text } },
      );
    }
  }
  return [...(await heldPlayers()).map((hold) => hold._id), ...owing, ...[...riskHeld.keys()].map(objectId)];
}

async function sendNextBatch(runtime: HotRuntime, report: PayoutRoundReport, holding: () => boolean, logger?: Logger) {
  const hot = runtime.hotWallet;
  const held = await heldForPayout({ note: true });
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
  // the chain was asked for balances and addresses meanwhile: a round whose lease ran out under it records nothing
  if (!planned.length || !holding()) return;

  const batchId = new Types.ObjectId();
  const record: BatchRecord = {
    batchId,
    wallet: hot.contract.address.toRawString(),
    seqno: await walletSeqno(runtime.chain, hot.contract.address, account.state),
    validUntil: account.chainTime + BATCH_TTL_SECONDS,
    afterLt: account.lastTransaction?.lt ?? '0',
    deployed: account.state === 'active',
    withdrawals: planned.map((plan) => plan.withdrawal._id),
  };
  // recorded first, then the engine runs its steps (claim, sign, send, settle); a crash anywhere is finished by the next pass
  await runOperation({
    kind: PAYOUT_BATCH,
    key: `payout-batch:${String(batchId)}`,
    refType: 'PayoutBatch',
    refId: String(batchId),
    players: [],
    house: [],
    data: { ...record },
  });
}

/** Step 1: the batch written, claiming, and its withdrawals taken from the queue (those still approved, of players not held). */
async function claimBatch(operation: BatchOperation) {
  const { batchId, wallet, seqno, validUntil, afterLt, withdrawals } = operation.data as BatchRecord;
  await PayoutBatchModel.updateOne(
    { _id: batchId },
    { $setOnInsert: { wallet, seqno, validUntil, afterLt, withdrawals, state: 'claiming', operation: operation.key } },
    { upsert: true },
  );
  // a player held since the batch was planned (a crash may have let time pass) is left in the queue
  const held = await heldForPayout({ note: false });
  await WithdrawalModel.updateMany(
    { _id: { $in: withdrawals }, status: 'approved', ...(held.length ? { user: { $nin: held } } : {}) },
    { $set: { status: 'sending', 'payout.batch': batchId, 'payout.state': 'in-batch', 'payout.batchedAt': new Date(), chainNote: '' } },
  );
}

/**
 * Step 2: each claimed payout's message planned and its hash recorded on the withdrawal, then the external message signed with
 * the recorded seqno and valid_until and recorded with the batch. Conditional on the batch still claiming: signed once.
 */
async function signBatch(runtime: HotRuntime, batch: BatchDocument, operation: BatchOperation) {
  if (batch.state !== 'claiming') return;
  const hot = runtime.hotWallet;
  const claimed = await WithdrawalModel.find({ 'payout.batch': batch._id, status: 'sending' });
  const coins = new Map<string, CoinRow | null>();
  const messages: Planned[] = [];
  for (const withdrawal of claimed) {
    const key = String(withdrawal.coin);
    if (!coins.has(key)) coins.set(key, await findCoin(withdrawal.coin));
    const coin = coins.get(key);
    try {
      if (coin) messages.push(await planPayout(runtime, withdrawal, coin));
      continue;
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
    }
    // its coin is gone, or the chain cannot answer for it: not in this batch, back in the queue
    await WithdrawalModel.updateOne(
      { _id: withdrawal._id, status: 'sending', 'payout.batch': batch._id },
      { $set: { status: 'approved', 'payout.batch': null, 'payout.state': '', 'payout.batchedAt': null } },
    );
  }
  if (!messages.length) {
    await PayoutBatchModel.updateOne({ _id: batch._id, state: 'claiming' }, { $set: { state: 'expired', finishedAt: new Date() } });
    return;
  }
  await WithdrawalModel.bulkWrite(
    messages.map((plan) => ({
      updateOne: {
        filter: { _id: plan.withdrawal._id },
        update: {
          $set: { 'payout.bodyHash': plan.message.body.hash().toString('hex'), 'payout.queryId': String(queryIdOf(plan.withdrawal._id)) },
        },
      },
    })),
  );
  const { deployed } = operation.data as BatchRecord;
  const body = hot.contract.createTransfer({
    seqno: batch.seqno,
    secretKey: hot.secretKey,
    timeout: batch.validUntil,
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    messages: messages.map((plan) => plan.message),
  });
  const message = beginCell()
    .store(storeMessage(external({ to: hot.contract.address, init: deployed ? undefined : hot.contract.init, body })))
    .endCell();
  const signed = await PayoutBatchModel.updateOne(
    { _id: batch._id, state: 'claiming' },
    {
      $set: {
        message: message.toBoc().toString('base64'),
        bodyHash: body.hash().toString('hex'),
        withdrawals: messages.map((plan) => plan.withdrawal._id),
        state: 'signed',
      },
    },
  );
  if (signed.modifiedCount) tally.batched += messages.length;
}

/** What the hot wallet took into batches since the start of the UTC day, per coin (micro-units); bounced ones are given back. */
export async function paidTodayByCoin(now = new Date()): Promise<Map<string, bigint>> {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const rows = await WithdrawalModel.aggregate<{ _id: unknown; total: number }>([
    { $match: { 'payout.batchedAt': { $gte: dayStart }, status: { $in: ['sending', 'done'] } } },
    { $group: { _id: '$coin', total: { $sum: '$amount' } } },
  ]);
  return new Map(rows.map((row) => [String(row._id), BigInt(row.total)]));
}

/**
 * Step 3: the recorded message sent, unless the batch is no longer waiting to land (expired, landed, confirmed). A send the
 * TON API did not answer may have reached the chain or not (or been refused as already taken): the step is done either way,
 * and the settling asks the chain, sending it again until it lands or provably cannot.
 */
async function sendSigned(runtime: HotRuntime, batch: BatchDocument) {
  if (batch.state !== 'signed' && batch.state !== 'sent') return;
  try {
    await sendBatch(runtime, batch);
  } catch (error) {
    if (!(error instanceof ChainUnavailable)) throw error;
    chainTrouble = error;
  }
}

/** The recorded message sent, exactly as signed (step 3, and each re-send while it has not landed). */
async function sendBatch(runtime: PayoutRuntime, batch: BatchDocument) {
  await runtime.chain.sendExternal(Cell.fromBoc(Buffer.from(batch.message, 'base64'))[0]!);
  await PayoutBatchModel.updateOne({ _id: batch._id, state: { $in: ['signed', 'sent'] } }, { $set: { state: 'sent' }, $inc: { sends: 1 } });
  await WithdrawalModel.updateMany(
    { 'payout.batch': batch._id, status: 'sending', 'payout.state': 'in-batch' },
    { $set: { 'payout.state': 'sent' } },
  );
}

/** A batch that can never pay anything (expired): its withdrawals still on their way go back to the queue. */
async function requeue(batch: BatchDocument, state: string) {
  const back = await WithdrawalModel.updateMany(
    { 'payout.batch': batch._id, status: 'sending' },
    { $set: { status: 'approved', 'payout.batch': null, 'payout.state': state, 'payout.batchedAt': null } },
  );
  tally.requeued += back.modifiedCount;
}

/**
 * Step 4: moves a batch on by what the chain shows, until it is confirmed or expired (then done; 'wait' until then). Every
 * write is conditional, so a repeat after a crash, or by a second runner, is harmless. `resend`: a batch not seen on chain
 * is sent again unless it provably can never land (the pass that has just sent it only looks).
 */
async function settleBatch(runtime: HotRuntime, batch: BatchDocument, resend: boolean): Promise<void | 'wait'> {
  const wallet = runtime.hotWallet.contract.address;
  // never signed: nothing of it can land
  if (batch.state === 'claiming') {
    await PayoutBatchModel.updateOne({ _id: batch._id, state: 'claiming' }, { $set: { state: 'expired', finishedAt: new Date() } });
    return requeue(batch, '');
  }
  if (batch.state === 'expired') return requeue(batch, 'expired');
  if (batch.state === 'signed' || batch.state === 'sent') {
    const landed = await findByInboundBody(runtime.chain, wallet, batch.bodyHash, BigInt(batch.afterLt));
    if (landed) {
      await recordLanding(batch, landed);
    } else {
      if (!resend) return 'wait';
      const account = await runtime.chain.account(wallet);
      const seqno = await walletSeqno(runtime.chain, wallet, account.state);
      // provably never landing: its time is over, or its seqno was used by something else; the check for its
      // transaction above came first, so nothing of it was paid
      if (!(account.chainTime > batch.validUntil || seqno > batch.seqno)) {
        await sendBatch(runtime, batch);
        return 'wait';
      }
      const again = await findByInboundBody(runtime.chain, wallet, batch.bodyHash, BigInt(batch.afterLt));
      if (!again) {
        await PayoutBatchModel.updateOne(
          { _id: batch._id, state: { $in: ['signed', 'sent'] } },
          { $set: { state: 'expired', finishedAt: new Date() } },
        );
        return requeue(batch, 'expired');
      }
      await recordLanding(batch, again);
    }
  }
  const current = await PayoutBatchModel.findById(batch._id);
  if (current?.state === 'landed') return (await confirmBatch(runtime, current)) ? undefined : 'wait';
  return current?.state === 'confirmed' ? undefined : 'wait';
}

async function recordLanding(batch: BatchDocument, tx: Transaction) {
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
      tally.requeued += back.modifiedCount;
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
 * it goes back to the operators' queue with the reason, to approve again or reject (which refunds the player). True once
 * none is left on its way: the batch is confirmed.
 */
async function confirmBatch(runtime: HotRuntime, batch: BatchDocument): Promise<boolean> {
  const items = await WithdrawalModel.find({ 'payout.batch': batch._id, status: 'sending' });
  const wallet = runtime.hotWallet.contract.address;
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
      if (await settle(withdrawal)) tally.confirmed++;
    } else {
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
      tally.bounced += back.modifiedCount;
    }
  }
  if (await WithdrawalModel.exists({ 'payout.batch': batch._id, status: 'sending' })) return false;
  await PayoutBatchModel.updateOne({ _id: batch._id, state: 'landed' }, { $set: { state: 'confirmed', finishedAt: new Date() } });
  return true;
}

/** The hot wallet's transaction that carried a landed batch. */
async function batchTransaction(runtime: PayoutRuntime, wallet: Address, batch: BatchDocument): Promise<Transaction | null> {
  const hash = Buffer.from(batch.txHash, 'hex').toString('base64');
  const [tx] = await runtime.chain.transactions(wallet, { limit: 1, before: { lt: batch.txLt, hash } });
  if (tx?.hash().toString('hex') === batch.txHash) return tx;
  return findByInboundBody(runtime.chain, wallet, batch.bodyHash, BigInt(batch.afterLt));
}

/**
 * Records a withdrawal the chain shows paid as done, once: its decision is an operation of the engine (the amount from in
 * flight to paid on chain). An operator's decision taken meanwhile stands instead (false).
 */
async function settle(withdrawal: WithdrawalDocument): Promise<boolean> {
  try {
    await decideWithdrawal(withdrawal, { status: 'done', from: ['sending'], processedAt: new Date(), payoutState: 'confirmed' });
    return true;
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'WITHDRAWAL_PROCESSED')) throw error;
    return false;
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
