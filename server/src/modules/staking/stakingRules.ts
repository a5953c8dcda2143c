import { percentOf, STAKING_DURATIONS, type StakingDuration } from '@gift/shared';

const DAY_MS = 86_400_000;

/** Profit of a stake: its percent of the amount, rounded down to a micro-unit. */
export function stakeProfit(amount: bigint, percent: string): bigint {
  return percentOf(amount, percent);
}

/** A stake unlocks the chosen number of days after it starts. */
export function unlockDate(startedAt: Date, duration: StakingDuration): Date {
  return new Date(startedAt.getTime() + STAKING_DURATIONS[duration].days * DAY_MS);
}

/** The countdown of a position: whole seconds left (rounded up) and whether it can be claimed now. */
export function stakeCountdown(stake: { unlocksAt: Date; claimedAt: Date | null }, now: Date) {
  const leftMs = Math.max(0, stake.unlocksAt.getTime() - now.getTime());
  return { secondsLeft: Math.ceil(leftMs / 1000), claimable: leftMs === 0 && !stake.claimedAt };
}
