import { Address } from '@ton/core';
import { fromMicros } from '@gift/shared';
import { ChainUnavailable } from '../../lib/ton/tonChain';
import { listGiftCoins } from '../coins/giftCoins.service';
import { getAppConfig, setAppConfigFields } from '../config/config.service';
import { formatChainUnits, jettonWalletOf, payoutRuntime } from './chainPayments';
import { PayoutBatchModel } from './payoutBatch.model';
import { paidTodayByCoin } from './payoutSender';
import { WithdrawalModel } from './withdrawal.model';

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
  const coins = await listGiftCoins({ symbol: 1, network: 1, jettonMaster: 1, decimals: 1, payoutDailyCap: 1, payoutApprovalAbove: 1 }, {});
  const today = await paidTodayByCoin();
  const perCoin = coins.map((coin) => ({
    coin: String(coin._id),
    symbol: coin.symbol,
    balance: null as string | null,
    paidToday: fromMicros(today.get(String(coin._id)) ?? 0n),
    dailyCap: fromMicros(BigInt((coin.payoutDailyCap as number | undefined) ?? 0)),
    secondApprovalAbove: fromMicros(BigInt((coin.payoutApprovalAbove as number | undefined) ?? 0)),
  }));
  let chainProblem = '';
  if (runtime?.hotWallet) {
    try {
      const address = runtime.hotWallet.contract.address;
      const account = await runtime.chain.account(address);
      for (const [index, coin] of coins.entries()) {
        if (coin.network === 'ton') perCoin[index]!.balance = formatChainUnits(account.balance, 9);
        else if (coin.jettonMaster) {
          // a master that is not on this chain (a typo, another network) shows no balance rather than hiding the others'
          const balance = await jettonWalletOf(runtime.chain, Address.parse(coin.jettonMaster), address)
            .then((wallet) => runtime.chain.jettonBalance(wallet))
            .catch(() => null);
          perCoin[index]!.balance = balance === null ? null : formatChainUnits(balance, coin.decimals);
        }
      }
    } catch (error) {
      if (!(error instanceof ChainUnavailable)) throw error;
      chainProblem = error.message;
    }
  }
  return {
    id: 'treasury',
    mode: runtime?.hotWallet ? 'automated' : 'manual',
    network: runtime?.network ?? 'mainnet',
    hotWallet: runtime?.hotWallet
      ? runtime.hotWallet.contract.address.toString({ bounceable: false, testOnly: runtime.network === 'testnet' })
      : null,
    coins: perCoin,
    paused: !!config.payoutsPaused,
    stopped: config.payoutsStopped || chainProblem,
    owed: owed.map((row) => ({ coin: String(row._id.coin), status: row._id.status, total: fromMicros(row.total), count: row.count })),
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
