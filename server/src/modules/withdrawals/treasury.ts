import { Address } from '@ton/core';
import { fromMicros } from '@gift/shared';
import { ChainUnavailable } from '../../lib/ton/tonChain';
import { listCoins } from '../coins/giftCoins.service';
import { getAppConfig, setAppConfigFields } from '../config/config.service';
import { formatChainUnits, jettonWalletOf, payoutRuntime } from './chainPayments';
import { hotWalletThresholds, warningsOf } from './hotWalletWarnings';
import { PayoutBatchModel } from './payoutBatch.model';
import { paidTodayByCoin } from './payoutSender';
import { WithdrawalModel } from './withdrawal.model';

const COIN_FIELDS = { symbol: 1, network: 1, jettonMaster: 1, decimals: 1, payoutDailyCap: 1, payoutApprovalAbove: 1 } as const;
type CoinRow = Awaited<ReturnType<typeof listCoins>>[number];

interface BalancesRead {
  /** Hot wallet balance per coin id, in the coin's units; null where it could not be read. */
  balances: Map<string, string | null>;
  asOf: Date | null;
  fresh: boolean;
  /** Why the chain could not be read, when it could not. */
  problem: string;
}

/** How long the treasury waits for the chain before it answers with the last balances it knew. */
const TREASURY_CHAIN_WAIT_MS = 1_500;

/** The last balances read from the chain on this instance, and the read under way (one at a time). */
let lastRead: BalancesRead | null = null;
let reading: Promise<BalancesRead> | null = null;

/**
 * The hot wallet's last known balance of each coin by symbol, and when it was read: for the metrics, which never wait on
 * the chain. A fresh read starts in the background when none is under way, for the next scrape.
 */
export async function lastKnownHotWalletBalances(): Promise<{ asOf: Date | null; bySymbol: Map<string, string> }> {
  const coins = await listCoins(COIN_FIELDS, {});
  void startReading(coins);
  const bySymbol = new Map<string, string>();
  for (const coin of coins) {
    const balance = lastRead?.balances.get(String(coin._id));
    if (balance) bySymbol.set(coin.symbol, balance);
  }
  return { asOf: lastRead?.asOf ?? null, bySymbol };
}

/** Starts a read of the balances unless one is under way; the read keeps what it finds for the next answer. */
function startReading(coins: CoinRow[]): Promise<BalancesRead> {
  if (!reading) {
    reading = readBalances(coins).finally(() => (reading = null));
    // a read that outlives the page's wait settles unobserved: its failure is the next load's to report
    reading.catch(() => undefined);
  }
  return reading;
}

async function readBalances(coins: CoinRow[]): Promise<BalancesRead> {
  const runtime = payoutRuntime();
  const balances = new Map<string, string | null>();
  if (!runtime?.hotWallet) return { balances, asOf: null, fresh: true, problem: '' };
  try {
    const address = runtime.hotWallet.contract.address;
    const account = await runtime.chain.account(address);
    for (const coin of coins) {
      if (coin.network === 'ton') balances.set(String(coin._id), formatChainUnits(account.balance, 9));
      else if (coin.jettonMaster) {
        // a master that is not on this chain (a typo, another network) shows no balance rather than hiding the others'
        const balance = await jettonWalletOf(runtime.chain, Address.parse(coin.jettonMaster), address)
          .then((wallet) => runtime.chain.jettonBalance(wallet))
          .catch(() => null);
        balances.set(String(coin._id), balance === null ? null : formatChainUnits(balance, coin.decimals));
      }
    }
    lastRead = { balances, asOf: new Date(), fresh: true, problem: '' };
    return lastRead;
  } catch (error) {
    if (!(error instanceof ChainUnavailable)) throw error;
    return {
      balances: lastRead?.balances ?? new Map<string, string | null>(),
      asOf: lastRead?.asOf ?? null,
      fresh: false,
      problem: error.message,
    };
  }
}

/**
 * The hot wallet's balances: read from the chain when it answers within TREASURY_CHAIN_WAIT_MS; otherwise the last
 * ones this instance read, with their time, while the read goes on and keeps them for the next load. So the page
 * answers at once when the chain hangs.
 */
async function hotWalletBalances(coins: CoinRow[]): Promise<BalancesRead> {
  const pending = startReading(coins);
  const timer = new Promise<null>((resolve) => setTimeout(resolve, TREASURY_CHAIN_WAIT_MS, null).unref());
  const read = await Promise.race([pending, timer]);
  if (read) return read;
  return {
    balances: lastRead?.balances ?? new Map<string, string | null>(),
    asOf: lastRead?.asOf ?? null,
    fresh: false,
    problem: `the TON API has not answered within ${TREASURY_CHAIN_WAIT_MS / 1000} s: the balances shown are the last known`,
  };
}

/** The hot wallet's balance of each coin by id, for the books: read as the treasury reads it (the last known while the chain is slow). */
export async function hotWalletHoldings() {
  const read = await hotWalletBalances(await listCoins(COIN_FIELDS, {}));
  return { automated: !!payoutRuntime()?.hotWallet, balances: read.balances, fresh: read.fresh, problem: read.problem };
}

/** What the treasury page shows: the hot wallet, its balances per coin, what is owed, and the batches in flight. */
export async function treasury() {
  const runtime = payoutRuntime();
  const config = await getAppConfig();
  const owed = await WithdrawalModel.aggregate<{ _id: { coin: unknown; status: string }; total: number; count: number }>([
    { $match: { status: { $in: ['pending', 'approved', 'sending'] } } },
    { $group: { _id: { coin: '$coin', status: '$status' }, total: { $sum: '$amount' }, count: { $sum: 1 } } },
  ]);
  const batches = await PayoutBatchModel.find({ state: { $in: ['signed', 'sent', 'landed'] } })
    .sort({ createdAt: 1 })
    .lean();
  const coins = await listCoins(COIN_FIELDS, {});
  const today = await paidTodayByCoin();
  const thresholds = await hotWalletThresholds(coins.map((coin) => coin._id));
  const perCoin = coins.map((coin) => ({
    coin: String(coin._id),
    symbol: coin.symbol,
    balance: null as string | null,
    paidToday: fromMicros(today.get(String(coin._id)) ?? 0n),
    dailyCap: fromMicros(BigInt((coin.payoutDailyCap as number | undefined) ?? 0)),
    secondApprovalAbove: fromMicros(BigInt((coin.payoutApprovalAbove as number | undefined) ?? 0)),
    /** The hot wallet is low below this ('0': no threshold): the page warns and operators are alerted. */
    warnBelow: thresholds.get(String(coin._id)) ?? '0',
  }));
  const read = await hotWalletBalances(coins);
  for (const row of perCoin) row.balance = read.balances.get(row.coin) ?? null;
  const chainProblem = read.problem;
  return {
    id: 'treasury',
    mode: runtime?.hotWallet ? 'automated' : 'manual',
    network: runtime?.network ?? 'mainnet',
    hotWallet: runtime?.hotWallet
      ? runtime.hotWallet.contract.address.toString({ bounceable: false, testOnly: runtime.network === 'testnet' })
      : null,
    coins: perCoin,
    /** When the balances were read from the chain; older than now when the chain was slow and the last known ones are shown. */
    balancesAsOf: read.asOf,
    balancesFresh: read.fresh,
    paused: !!config.payoutsPaused,
    stopped: config.payoutsStopped || chainProblem,
    owed: owed.map((row) => ({ coin: String(row._id.coin), status: row._id.status, total: fromMicros(row.total), count: row.count })),
    /** Coins the hot wallet holds less of than their threshold, or than the withdrawals not yet paid add up to. */
    warnings: warningsOf(
      perCoin,
      owed.map((row) => ({ coin: String(row._id.coin), total: fromMicros(row.total) })),
    ),
    batches: batches.map((batch) => ({
      id: String(batch._id),
      seqno: batch.seqno,
      state: batch.state,
      count: batch.withdrawals.length,
      validUntil: batch.validUntil,
      sends: batch.sends,
      txHash: batch.txHash,
      createdAt: batch.createdAt,
    })),
  };
}
/** The pause switch: on, the hot wallet sends nothing (a batch in flight is still confirmed or re-queued). */
export async function setPayoutsPaused(paused: boolean): Promise<void> {
  await setAppConfigFields({ payoutsPaused: paused });
}
