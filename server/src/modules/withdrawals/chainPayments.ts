import { Address, beginCell, Cell, comment, type Message, type Transaction } from '@ton/core';
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
export const JETTON_INTERNAL_TRANSFER = 0x178d4519;

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
