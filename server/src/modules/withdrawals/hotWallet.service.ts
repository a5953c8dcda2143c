import { fromMicros, toMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { upsertWithRetry } from '../../db/mongoErrors';
import { listCoins } from '../coins/giftCoins.service';
import { HotWalletThresholdModel } from './hotWalletThreshold.model';
import { hotWalletThresholds, warningsOf, type HotWalletWarning } from './hotWalletWarnings';
import { lastKnownHotWalletBalances } from './treasury';
import { WithdrawalModel } from './withdrawal.model';
import { pendingWithdrawalTotals } from './withdrawals.service';

/** Sets one coin's threshold (a decimal; '0' turns it off) with one upsert by coin; answers the one it replaced. */
export async function setHotWalletThreshold(coinId: Id, below: string, accountId: string): Promise<{ before: string; after: string }> {
  const coin = objectId(coinId);
  const previous = await upsertWithRetry(() =>
    HotWalletThresholdModel.findOneAndUpdate(
      { coin },
      { $set: { below: Number(toMicros(below)), setBy: objectId(accountId) }, $setOnInsert: { coin } },
      { upsert: true, returnDocument: 'before' },
    ).lean(),
  );
  return { before: fromMicros(BigInt((previous?.below as number | undefined) ?? 0)), after: fromMicros(toMicros(below)) };
}

/** The warnings now, from the last balances read from the chain (never waiting on it): what operators are alerted of. */
export async function currentHotWalletWarnings(): Promise<HotWalletWarning[]> {
  const { bySymbol } = await lastKnownHotWalletBalances();
  if (!bySymbol.size) return [];
  const coins = await listCoins({ symbol: 1 }, {});
  const thresholds = await hotWalletThresholds(coins.map((coin) => coin._id));
  const owed = await pendingWithdrawalTotals();
  return warningsOf(
    coins.map((coin) => ({
      coin: String(coin._id),
      symbol: coin.symbol,
      balance: bySymbol.get(coin.symbol) ?? null,
      warnBelow: thresholds.get(String(coin._id)) ?? '0',
    })),
    owed.map((row) => ({ coin: String(row._id), total: fromMicros(BigInt(row.total)) })),
  );
}

export type { HotWalletWarning };

/** Withdrawals waiting for an operator's decision: one count through the index on status. */
export function countWithdrawalsToDecide(): Promise<number> {
  return WithdrawalModel.countDocuments({ status: 'pending' });
}
