import { Address, beginCell, Cell, comment, Dictionary, type Message, type Transaction } from '@ton/core';
import { fromMicros, MONEY_DECIMALS } from '@gift/shared';
import type { TonChain } from '../../lib/ton/tonChain';
import type { HotWallet } from '../../lib/ton/hotWallet';

/** Where payouts are sent from and checked against; set at start (index.ts), and by tests. */
export interface PayoutRuntime {
  chain: TonChain;
  /** The hot wallet automated payouts are sent from; null: manual mode only. */
  hotWallet: HotWallet | null;
  network: 'mainnet' | 'testnet';
}

let runtime: PayoutRuntime | null = null;

export function configurePayouts(next: PayoutRuntime | null): void {
  runtime = next;
  jettonWallets.clear();
}

export function payoutRuntime(): PayoutRuntime | null {
  return runtime;
}

/** The explorer page of a transaction (tonviewer; testnet.tonviewer on testnet). */
export function explorerLink(hash: string, network: 'mainnet' | 'testnet' = runtime?.network ?? 'mainnet'): string {
  return `https://${network === 'testnet' ? 'testnet.' : ''}tonviewer.com/transaction/${encodeURIComponent(hash)}`;
}

/** A stored amount (micro-units) in the coin's smallest on-chain units (nanotons for TON). */
export function chainUnits(micros: bigint, decimals: number): bigint {
  return decimals >= MONEY_DECIMALS ? micros * 10n ** BigInt(decimals - MONEY_DECIMALS) : micros / 10n ** BigInt(MONEY_DECIMALS - decimals);
}

/** On-chain units back to a decimal string of the coin, for messages to operators. */
export function formatChainUnits(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

const jettonWallets = new Map<string, Address>();

/** The jetton wallet of `owner` for `master`, remembered (it never changes). */
export async function jettonWalletOf(chain: TonChain, master: Address, owner: Address): Promise<Address> {
  const key = `${master.toRawString()}|${owner.toRawString()}`;
  const known = jettonWallets.get(key);
  if (known) return known;
  const found = await chain.jettonWallet(master, owner);
  jettonWallets.set(key, found);
  return found;
}

const JETTON_TRANSFER = 0x0f8a7ea5;
const JETTON_INTERNAL_TRANSFER = 0x178d4519;

export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: Address;
}

/** A jetton transfer (TEP-74 `transfer`) body, or null when the body is something else. */
export function readJettonTransfer(body: Cell): JettonTransfer | null {
  try {
    const slice = body.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== JETTON_TRANSFER) return null;
    const queryId = slice.loadUintBig(64);
    const amount = slice.loadCoins();
    const destination = slice.loadAddress();
    return { queryId, amount, destination };
  } catch {
    return null;
  }
}

/** The body of a jetton transfer from the hot wallet: the amount to `destination`, excess back to the wallet, a comment forwarded. */
export function jettonTransferBody({
  queryId,
  amount,
  destination,
  responseTo,
  text,
}: JettonTransfer & { responseTo: Address; text: string }): Cell {
  return beginCell()
    .storeUint(JETTON_TRANSFER, 32)
    .storeUint(queryId, 64)
    .storeCoins(amount)
    .storeAddress(destination)
    .storeAddress(responseTo)
    .storeBit(0)
    .storeCoins(1n)
    .storeBit(1)
    .storeRef(comment(text))
    .endCell();
}

/** Whether a transaction ran to the end: not aborted, its computation and its actions succeeded. */
export function succeeded(tx: Transaction): boolean {
  const description = tx.description;
  if (description.type !== 'generic') return false;
  if (description.aborted) return false;
  if (description.computePhase.type !== 'vm' || !description.computePhase.success) return false;
  return description.actionPhase?.success !== false;
}

export function internalOut(tx: Transaction): Message[] {
  return [...tx.outMessages.values()].filter((message) => message.info.type === 'internal');
}

/**
 * The newest transaction of `address` that `matches`, paging back through at most `depth` transactions, and never
 * past `afterLt` (the transactions before it cannot be the one looked for).
 */
async function findTransactionWhere(
  chain: TonChain,
  address: Address,
  matches: (tx: Transaction) => boolean,
  { afterLt = 0n, depth }: { afterLt?: bigint; depth: number },
): Promise<Transaction | null> {
  let before: { lt: string; hash: string } | undefined;
  for (let seen = 0; seen < depth;) {
    const page = await chain.transactions(address, { limit: 50, before });
    for (const tx of page) {
      if (tx.lt <= afterLt) return null;
      if (matches(tx)) return tx;
    }
    if (page.length < 50) return null;
    seen += page.length;
    const last = page[page.length - 1]!;
    before = { lt: last.lt.toString(), hash: last.hash().toString('base64') };
  }
  return null;
}

/** A transaction of `address` by its hash (hex), among its last 500. */
export function findTransaction(chain: TonChain, address: Address, hashHex: string): Promise<Transaction | null> {
  return findTransactionWhere(chain, address, (tx) => tx.hash().toString('hex') === hashHex, { depth: 500 });
}

/** The transaction of `address` after `afterLt` whose inbound message has this body hash (hex). */
export function findByInboundBody(chain: TonChain, address: Address, bodyHashHex: string, afterLt = 0n): Promise<Transaction | null> {
  return findTransactionWhere(chain, address, (tx) => tx.inMessage?.body.hash().toString('hex') === bodyHashHex, { afterLt, depth: 300 });
}

/** An out-message of a transaction with the hash of its cell as the chain stored it: the message's own name. */
export interface SentMessage {
  message: Message;
  /** Hex hash of the message's cell (as explorers and TON Center v3 name it). */
  hash: string;
}

/**
 * A transaction's internal out-messages, each with the hash of its cell as stored in the transaction (read from the
 * transaction's own cells: a message serialized again need not come out bit for bit the same).
 */
export function sentMessages(tx: Transaction): SentMessage[] {
  const slice = tx.raw.refs[0]!.beginParse();
  if (slice.loadBit()) slice.loadRef();
  const cells = slice.loadDict(Dictionary.Keys.Uint(15), {
    serialize: (src: Cell, builder) => void builder.storeRef(src),
    parse: (item) => item.loadRef(),
  });
  return [...tx.outMessages.keys()].flatMap((index) => {
    const message = tx.outMessages.get(index)!;
    const cell = cells.get(index);
    return message.info.type === 'internal' && cell ? [{ message, hash: cell.hash().toString('hex') }] : [];
  });
}

/** The hash (hex) of a transaction's inbound message cell, as stored in the transaction; '' when it has none. */
function inboundHash(tx: Transaction): string {
  const slice = tx.raw.refs[0]!.beginParse();
  return slice.loadBit() ? slice.loadRef().hash().toString('hex') : '';
}

/**
 * The transaction of the message's destination that took this message (by the message's hash), or null while it has
 * not been taken yet. Only the destination's transactions after the message was created are read.
 */
function receivingTransaction(chain: TonChain, sent: SentMessage): Promise<Transaction | null> {
  if (sent.message.info.type !== 'internal') return Promise.resolve(null);
  const { dest, createdLt } = sent.message.info;
  return findTransactionWhere(chain, dest, (tx) => inboundHash(tx) === sent.hash, { afterLt: createdLt, depth: 500 });
}

/** Where a payment stands at its destination. */
export type Arrival =
  | { state: 'arrived'; tx: Transaction }
  | { state: 'in-flight' }
  /** Not paid: `returned` when the value went back to the sender (a bounce), false when the destination kept it. */
  | { state: 'failed'; reason: string; returned: boolean; tx: Transaction };

/**
 * Whether the destination's transaction kept a TON payment: the full value credited, nothing bounced back, and its
 * computation and actions succeeded, or (a wallet not deployed yet, which runs no code) skipped for want of code, so the
 * coins sit on the address, as a non-bounceable transfer leaves them.
 */
function tonKept(tx: Transaction, sent: Message): { ok: true } | { ok: false; reason: string; returned: boolean } {
  const description = tx.description;
  if (description.type !== 'generic') return { ok: false, reason: 'the destination took it in an unusual transaction', returned: false };
  const value = sent.info.type === 'internal' ? sent.info.value.coins : 0n;
  const backToSender = [...tx.outMessages.values()].some(
    (out) => out.info.type === 'internal' && out.info.bounced && sent.info.type === 'internal' && out.info.dest.equals(sent.info.src),
  );
  if (description.bouncePhase?.type === 'ok' || backToSender) {
    const why =
      description.computePhase.type === 'skipped'
        ? 'the destination wallet is not deployed'
        : `the destination's code failed (exit code ${description.computePhase.exitCode})`;
    return { ok: false, reason: `it bounced: ${why}, and the coins went back to the payout wallet`, returned: true };
  }
  if ((description.creditPhase?.credit.coins ?? 0n) !== value)
    return { ok: false, reason: 'the destination was not credited the full amount', returned: false };
  const compute = description.computePhase;
  if (compute.type === 'skipped') {
    return compute.reason === 'no-state'
      ? { ok: true }
      : { ok: false, reason: `the destination did not run it (${compute.reason})`, returned: false };
  }
  if (!compute.success || description.actionPhase?.success === false)
    return { ok: false, reason: `the destination's code failed (exit code ${compute.exitCode}) and kept the coins`, returned: false };
  return { ok: true };
}

/** Where a TON payment (`sent` from the payout wallet's transaction) stands at its destination. */
export async function tonArrival(chain: TonChain, sent: SentMessage): Promise<Arrival> {
  const tx = await receivingTransaction(chain, sent);
  if (!tx) return { state: 'in-flight' };
  const kept = tonKept(tx, sent.message);
  return kept.ok
    ? { state: 'arrived', tx }
    : { state: 'failed', reason: `The payment did not arrive: ${kept.reason}`, returned: kept.returned, tx };
}

/** The amount of a jetton `internal_transfer` body, or null when the body is something else. */
function readInternalTransferAmount(body: Cell): bigint | null {
  try {
    const slice = body.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== JETTON_INTERNAL_TRANSFER) return null;
    slice.loadUintBig(64);
    return slice.loadCoins();
  } catch {
    return null;
  }
}

/** The exit code of a transaction's computation, for the words an operator reads. */
function exitOf(tx: Transaction): string {
  const description = tx.description;
  if (description.type !== 'generic') return 'an unusual transaction';
  if (description.computePhase.type === 'skipped') return `not run (${description.computePhase.reason})`;
  if (!description.computePhase.success) return `exit code ${description.computePhase.exitCode}`;
  return `its actions failed (result code ${description.actionPhase?.resultCode ?? '?'})`;
}

/**
 * Where a jetton payment stands: `sent` is the payout wallet's `transfer` to its own jetton wallet. The payout wallet's
 * jetton wallet must have run the transfer, and the destination's jetton wallet (`theirs`) its `internal_transfer` of
 * exactly `amount`, both successfully.
 */
export async function jettonArrival(
  chain: TonChain,
  sent: SentMessage,
  { theirs, amount, symbol }: { theirs: Address; amount: bigint; symbol: string },
): Promise<Arrival> {
  const taken = await receivingTransaction(chain, sent);
  if (!taken) return { state: 'in-flight' };
  if (!succeeded(taken))
    return {
      state: 'failed',
      reason: `The ${symbol} transfer failed in the payout wallet's jetton wallet (${exitOf(taken)}): no ${symbol} left it`,
      returned: true,
      tx: taken,
    };
  const onward = sentMessages(taken).find(
    (out) =>
      out.message.info.type === 'internal' && out.message.info.dest.equals(theirs) && readInternalTransferAmount(out.message.body) !== null,
  );
  if (!onward)
    return {
      state: 'failed',
      reason: `The ${symbol} transfer sent nothing on to the destination's jetton wallet`,
      returned: true,
      tx: taken,
    };
  if (readInternalTransferAmount(onward.message.body) !== amount)
    return { state: 'failed', reason: `The ${symbol} transfer moved another amount`, returned: false, tx: taken };
  const arrived = await receivingTransaction(chain, onward);
  if (!arrived) return { state: 'in-flight' };
  if (!succeeded(arrived))
    return {
      state: 'failed',
      reason: `The ${symbol} transfer failed at the destination's jetton wallet (${exitOf(arrived)}): it bounced back`,
      returned: true,
      tx: arrived,
    };
  return { state: 'arrived', tx: arrived };
}

/** A wallet's seqno: 0 before it is deployed. */
export async function walletSeqno(chain: TonChain, wallet: Address, state: string): Promise<number> {
  if (state !== 'active') return 0;
  const [seqno] = await chain.runGetMethod(wallet, 'seqno');
  return seqno?.type === 'int' ? Number(seqno.value) : 0;
}

/** The words an operator reads for an amount of a coin. */
export function describeAmount(micros: bigint, symbol: string): string {
  return `${fromMicros(micros)} ${symbol}`;
}
