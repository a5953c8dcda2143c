import type { ErrorCode } from './errors';

/**
 * Why an amount (in micro-units) cannot be staked under an offer's bounds, or with the player's balance when it is given;
 * null when it can. The server checks the bounds before quoting and the ledger checks the balance when it locks the coins;
 * the app checks both as the player types, with the same codes and so the same messages.
 */
export function stakeAmountRefusal(amount: bigint, minAmount: bigint, maxAmount: bigint, balance?: bigint): ErrorCode | null {
  if (amount < minAmount) return 'AMOUNT_BELOW_MINIMUM';
  if (amount > maxAmount) return 'AMOUNT_ABOVE_MAXIMUM';
  if (balance !== undefined && amount > balance) return 'INSUFFICIENT_BALANCE';
  return null;
}
