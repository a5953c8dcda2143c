import { AMOUNT_PATTERN, fitsDecimals, fromMicros, MONEY_DECIMALS, toMicros } from '@gift/shared/money';

/** The whole balance, cut (never rounded up) to the decimals the coin allows. */
export function maxAmount(balance: string, decimals: number): string {
  const step = 10n ** BigInt(MONEY_DECIMALS - Math.min(decimals, MONEY_DECIMALS));
  return fromMicros((toMicros(balance) / step) * step);
}

export type AmountProblem = 'invalidAmount' | 'tooManyDecimals' | 'belowMinimum' | 'aboveBalance';

/** Why an amount typed for a coin cannot be withdrawn, checked exactly in micro-units; null when it can. */
export function amountProblem(amount: string, coin: { balance: string; minimum: string; decimals: number }): AmountProblem | null {
  const typed = amount.trim();
  if (!AMOUNT_PATTERN.test(typed) || toMicros(typed) === 0n) return 'invalidAmount';
  if (!fitsDecimals(typed, coin.decimals)) return 'tooManyDecimals';
  if (toMicros(typed) < toMicros(coin.minimum)) return 'belowMinimum';
  if (toMicros(typed) > toMicros(coin.balance)) return 'aboveBalance';
  return null;
}

/** The spec's rule: a balance below the coin's minimum cannot be withdrawn at all. */
export function balanceBelowMinimum(coin: { balance: string; minimum: string }): boolean {
  return toMicros(coin.balance) < toMicros(coin.minimum);
}
