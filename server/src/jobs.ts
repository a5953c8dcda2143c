import { listGrantsOfOlderVersion } from './modules/accounts/accountGrants.service';
import { auditDecisionsOfOlderVersion, keptOn } from './modules/accounts/decisionAudits.service';
import { coinChanges } from './modules/coins/giftCoins.service';
import { configRewardsDecided } from './modules/config/configRewards.service';
import { prizeChanges } from './modules/leagues/leaguePrizes.service';
import { missionRewardsDecided } from './modules/missions/missions.service';
import { starOfferChanges } from './modules/shop/shopBrakes.service';
import { figuresJob } from './modules/dashboard/dashboard.jobs';
import { auditGiftsOfOlderVersion, finishApprovedGiftsOfOlderVersion } from './modules/gifts/balanceAdjustment.service';
import { leaguesJob } from './modules/leagues/leagues.jobs';
import { registerMoneyKinds } from './moneyKinds';
import { jobOfSteps, runEachOnce, startJobs, type Job, type JobReport, type RunningJobs } from './modules/jobs/jobs.service';
import { rollUpBooks } from './modules/ledger/books.service';
import { recoverPendingEntries, releasePostedKeys } from './modules/ledger/ledger.service';
import { finishMiningMovesOfOlderVersion } from './modules/mining/mining.service';
import { missionRecovery, removeUnclaimedProofImages } from './modules/missions/missions.jobs';
import { removeSettledNotifications } from './modules/notifications/notifications.service';
import { removeExpiredCounters } from './modules/rateLimits/rateLimit.service';
import { referralQualificationJob, referralsOfOlderVersion } from './modules/referrals/referrals.jobs';
import { riskScoringJob } from './modules/risk/risk.jobs';
import { shopJob } from './modules/shop/shop.jobs';
import { finishStakesOfOlderVersion, offerChanges } from './modules/staking/staking.service';
import { clawBacksJob } from './modules/clawbacks/clawbacks.jobs';
import { playerHousekeeping } from './modules/users/users.jobs';
import { removeExpiredProofPayloads } from './modules/wallet/wallet.service';
import { payoutsJob, withdrawalRecovery } from './modules/withdrawals/withdrawals.jobs';

/**
 * The product's background jobs, each under its own lease and interval (modules/jobs/jobs.service.ts). A module exports
 * its jobs, or the steps it adds to the money recovery; this list is where they are registered.
 */

/**
 * Money operations a crash left unfinished for longer than the grace, each finished by the function a retry of it calls.
 * The ledger's pending entries come first, so the operations after them find their entries posted.
 */
const moneyRecoveryJob = jobOfSteps({ name: 'money-recovery', kind: 'recovery' }, [
  { name: 'pendingEntries', run: ({ graceMs }) => recoverPendingEntries(graceMs) },
  withdrawalRecovery,
  // stakes and their claims are operations of the engine, finished with the pending entries; this finishes the ones an
  // older version left half-done (once: afterwards a single read)
  { name: 'stakesOfOlderVersion', run: () => finishStakesOfOlderVersion().then(() => 0) },
  ...missionRecovery,
  // mining moves are operations of the engine too; this finishes the ones an older version left owed (once)
  { name: 'miningMovesOfOlderVersion', run: ({ graceMs }) => finishMiningMovesOfOlderVersion(graceMs).then(() => 0) },
  referralsOfOlderVersion,
  // gifts are operations of the engine too; this gives the approved ones an older version left unposted (once)
  { name: 'giftsOfOlderVersion', run: () => finishApprovedGiftsOfOlderVersion().then(() => 0) },
  // and audits the gifts it left posted without their audit (once, after the sweep's grace)
  { name: 'giftAuditsOfOlderVersion', run: ({ graceMs }) => auditGiftsOfOlderVersion(graceMs).then(() => 0) },
  // money permissions asked is an operation of the engine; this lists the requests an older version left unlisted (once)
  { name: 'accountGrantsOfOlderVersion', run: () => listGrantsOfOlderVersion().then(() => 0) },
  // a decision on a brake's change is one too; this audits the last ones an older version left unaudited (once, after the grace)
  {
    name: 'decisionAuditsOfOlderVersion',
    run: ({ graceMs }) =>
      auditDecisionsOfOlderVersion(
        [missionRewardsDecided, configRewardsDecided, ...[coinChanges, offerChanges, prizeChanges, starOfferChanges].map(keptOn)],
        graceMs,
      ).then(() => 0),
  },
]);

/** Routine clean-up, mostly what a TTL index removes on MongoDB and the embedded engine keeps for ever. */
const housekeepingJob = jobOfSteps({ name: 'housekeeping', kind: 'housekeeping', intervalMs: 10_000 }, [
  // balances forget the keys of entries posted a while ago (up to 10,000 a pass)
  { name: 'releasedKeys', run: ({ now }) => releasePostedKeys(now) },
  { name: 'expiredCounters', run: ({ now }) => removeExpiredCounters(now) },
  { name: 'settledNotifications', run: ({ now }) => removeSettledNotifications(now) },
  { name: 'expiredProofPayloads', run: ({ now }) => removeExpiredProofPayloads(now) },
  { name: 'unclaimedProofImages', run: ({ now }) => removeUnclaimedProofImages(now) },
  ...playerHousekeeping,
]);

/** The books' closed days, each summed once into its roll-up (ledger/books.service.ts), a while after it closed. */
const booksJob: Job = {
  name: 'books',
  kind: 'housekeeping',
  intervalMs: 60_000,
  run: async ({ now }) => ({ daysRolledUp: await rollUpBooks(now) }),
};

/** In the order `runJobsOnce` runs them: the money recovery first, the payouts after the holds and claw-backs. */
const productJobs: readonly Job[] = [
  moneyRecoveryJob,
  referralQualificationJob,
  riskScoringJob,
  clawBacksJob,
  payoutsJob,
  leaguesJob,
  shopJob,
  // a day's figures wait for a money recovery pass begun after the day was over for an hour
  figuresJob(moneyRecoveryJob.name),
  booksJob,
  housekeepingJob,
];

/** Starts every job on this instance; each runs wherever its lease is held. */
export function startProductJobs(schedule: Parameters<typeof startJobs>[1]): RunningJobs {
  registerMoneyKinds();
  return startJobs(productJobs, schedule);
}

/**
 * Every job once now, in order, on this process (tests): each recovery step finishes what is older than `graceMs`.
 * Returns every step's count.
 */
export function runJobsOnce(graceMs: number, now = new Date()): Promise<JobReport> {
  registerMoneyKinds();
  return runEachOnce(productJobs, { graceMs, now });
}
