import type { HouseAccount, LedgerReason } from '@gift/shared';

/** The house account on the other side of a player's posting, by its reason: where the value came from, or went. */
export const HOUSE_SIDE: Record<LedgerReason, HouseAccount> = {
  mission: 'rewards:mission',
  referral: 'rewards:referral',
  streak: 'rewards:streak',
  mining: 'rewards:mining',
  gift: 'gifts',
  clawback: 'clawbacks',
  stake: 'stakes:held',
  unstake: 'stakes:held',
  withdraw: 'withdrawals:in-flight',
  refund: 'withdrawals:in-flight',
  league_prize: 'rewards:league',
};
