import { fromMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { HotWalletThresholdModel } from './hotWalletThreshold.model';

/** What the hot wallet holds of one coin and below how much it is low ('0': no threshold). */
interface CoinHolding {
  coin: string;
  symbol: string;
  /** As read from the chain (up to 18 decimals); null where unknown. */
  balance: string | null;
  warnBelow: string;
}

/** One coin the hot wallet is short of: under its threshold, or under what the withdrawals not yet paid add up to. */
export interface HotWalletWarning {
  coin: string;
  symbol: string;
  balance: string;
  why: 'threshold' | 'pending';
  threshold: string;
  pending: string;
}

/** A decimal (up to 18 places) as an integer of 10⁻¹⁸ units, exactly. */
function exact(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole) * 10n ** 18n + BigInt(fraction.slice(0, 18).padEnd(18, '0'));
}

/** The thresholds of these coins, as decimals ('0' where none is set). */
export async function hotWalletThresholds(coinIds: Id[]): Promise<Map<string, string>> {
  const rows = await HotWalletThresholdModel.find({ coin: { $in: coinIds.map((id) => objectId(id)) } }, { coin: 1, below: 1 }).lean();
  return new Map(rows.map((row) => [String(row.coin), fromMicros(BigInt(row.below as number))]));
}

/** The coins the hot wallet is short of, both ways: a coin under its threshold and under what is owed gives two. */
export function warningsOf(coins: CoinHolding[], owed: Array<{ coin: string; total: string }>): HotWalletWarning[] {
  const warnings: HotWalletWarning[] = [];
  for (const coin of coins) {
    if (coin.balance == null) continue;
    const balance = exact(coin.balance);
    const pending = owed.filter((row) => row.coin === coin.coin).reduce((sum, row) => sum + exact(row.total), 0n);
    const base = { coin: coin.coin, symbol: coin.symbol, balance: coin.balance, threshold: coin.warnBelow, pending: formatExact(pending) };
    if (exact(coin.warnBelow) > 0n && balance < exact(coin.warnBelow)) warnings.push({ ...base, why: 'threshold' });
    if (pending > balance) warnings.push({ ...base, why: 'pending' });
  }
  return warnings;
}

/** 10⁻¹⁸ units as a decimal without trailing zeros. */
function formatExact(units: bigint): string {
  const scale = 10n ** 18n;
  const fraction = (units % scale).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction ? `${units / scale}.${fraction}` : String(units / scale);
}
