import type { Id } from '../../db/ids';

/**
 * The idempotency key of each kind of ledger entry, spelt once: the operation that posts it, its recovery and
 * the demo seed all build it here, so a retry, a recovery and a seeded history can never disagree on it.
 */
export const entryKeys = {
  /** A mission's reward: one per player's progress on a mission. */
  missionReward: (progressId: Id) => `mission:${String(progressId)}`,
  /** A streak milestone's reward: once per streak (named by its first day) and milestone. */
  streakMilestone: (playerId: Id, streakStart: string, days: number) => `streak:${String(playerId)}:${streakStart}:${days}`,
  /** A referrer's reward for one friend. */
  referralReward: (friendId: Id) => `referral:${String(friendId)}`,
  /** A finished mining session moved to the wallet. */
  miningMove: (sessionId: Id) => `mining:${String(sessionId)}`,
  /** The coins a stake locks, by the stake's own key (the player's key scoped to the player). */
  stakeLock: (stakeKey: string) => `stake:${stakeKey}`,
  /** A stake's amount and profit paid back when it unlocks. */
  stakeReturn: (stakeId: Id) => `unstake:${String(stakeId)}`,
  /** The coins a withdrawal takes. */
  withdrawalDebit: (withdrawalId: Id) => `withdraw:${String(withdrawalId)}`,
  /** A rejected or bounced withdrawal's coins given back. */
  withdrawalRefund: (withdrawalId: Id) => `refund:${String(withdrawalId)}`,
};
