import type { Logger } from 'pino';
import { recoverPendingEntries, releasePostedKeys } from '../ledger/ledger.service';
import { runIfFree } from '../jobs/jobLease.service';
import { refreshLiveFigures, rollUpClosedDays } from '../dashboard/dashboard.service';
import { recoverMiningMoves } from '../mining/mining.service';
import {
  countEarlierCompletions,
  proofImagesInUse,
  recoverApprovedMissions,
  recoverRewardAudits,
  settleStaleSeats,
} from '../missions/missions.service';
import { recoverChangeAudits } from '../accounts/waitingChanges.service';
import { coinChanges } from '../coins/giftCoins.service';
import { recoverConfigRewardAudits } from '../config/configRewards.service';
import { offerChanges } from '../staking/staking.service';
import { proofImagesUploadedBefore, removeProofImages } from '../proofs/proofs.service';
import { removeSettledNotifications } from '../notifications/notifications.service';
import { removeExpiredCounters } from '../rateLimits/rateLimit.service';
import { qualifyReferrals, recoverReferrals } from '../referrals/referrals.service';
import { recoverStakes } from '../staking/staking.service';
import { recoverApprovedGifts, recoverGiftAudits } from '../users/balanceAdjustment.service';
import { recoverAccountGrants } from '../accounts/accountGrants.service';
import { removeExpiredLoginCodes } from '../users/loginCode.service';
import { backfillSearchFields } from '../users/players.service';
import { reconcileHolds } from '../users/playerStatus.service';
import { collectOwed } from '../users/clawBack.service';
import { assessDuePlayers } from '../risk/risk.service';
import { removeExpiredProofPayloads } from '../wallet/wallet.service';
import { recoverWithdrawals } from '../withdrawals/withdrawals.service';
import { runPayoutRound } from '../withdrawals/payouts.service';

/** How often every instance offers to sweep, and how old an unfinished operation must be before the sweep finishes it. */
const SWEEP_INTERVAL_MS = 5_000;
const SWEEP_GRACE_MS = 10_000;
const SWEEP_LEASE = 'recovery-sweep';

export type SweepReport = Record<string, number>;
/** Steps that are routine work, not interrupted operations: not logged as recoveries. */
const HOUSEKEEPING = new Set([
  'releasedKeys',
  'expiredCounters',
  'settledNotifications',
  'expiredProofPayloads',
  'expiredLoginCodes',
  'searchFieldsFilled',
  'completionsCounted',
  'unclaimedProofImages',
  'riskAssessed',
  'referralsQualified',
  'clawBacksSettled',
  'payoutsBatched',
  'payoutsConfirmed',
  'payoutsBounced',
  'payoutsRequeued',
  'daysRolledUp',
  'liveFigures',
]);

/** A proof picture is sent just before its claim: one no claim carries a day later was abandoned, or replaced by a new proof. */
const PROOF_IMAGE_KEPT_MS = 24 * 3_600_000;

export async function removeUnclaimedProofImages(now: Date): Promise<number> {
  const old = await proofImagesUploadedBefore(new Date(now.getTime() - PROOF_IMAGE_KEPT_MS), 200);
  const inUse = await proofImagesInUse(old);
  return removeProofImages(old.filter((id) => !inUse.has(id)));
}

/**
 * One pass of the recovery sweep. Each step calls the same function a retry of the operation calls, on the
 * records a crash left unfinished for longer than `graceMs` (operations still in flight are younger):
 * entries recorded but not posted first, so the operations after them find their entries posted.
 */
export async function sweepOnce(graceMs = SWEEP_GRACE_MS, now = new Date()): Promise<SweepReport> {
  const report: SweepReport = {};
  report.pendingEntries = await recoverPendingEntries(graceMs);
  report.withdrawals = await recoverWithdrawals(graceMs);
  report.stakes = await recoverStakes(graceMs);
  report.missions = await recoverApprovedMissions(graceMs);
  report.missionSeats = await settleStaleSeats(graceMs);
  report.completionsCounted = await countEarlierCompletions();
  report.miningMoves = await recoverMiningMoves(graceMs);
  report.referrals = await recoverReferrals(graceMs);
  report.referralsQualified = await qualifyReferrals();
  // an approved gift is posted (and audited as its approver's) before the audit sweep would name the operator who asked
  report.approvedGifts = await recoverApprovedGifts(graceMs);
  report.giftAudits = await recoverGiftAudits(graceMs);
  // money permissions approved but not yet given (or asked but not yet listed) when a crash came
  report.accountGrants = await recoverAccountGrants(graceMs, now);
  // a mission's reward change decided (live, or turned down) but not yet audited
  report.rewardAudits = await recoverRewardAudits(graceMs, now);
  // App Config's rewards, a coin's brakes and a staking offer's terms: decided, not yet audited
  report.configRewardAudits = await recoverConfigRewardAudits(graceMs, now);
  report.changeAudits = (await recoverChangeAudits(coinChanges, graceMs, now)) + (await recoverChangeAudits(offerChanges, graceMs, now));
  report.holds = await reconcileHolds(graceMs);
  report.releasedKeys = await releasePostedKeys(now);
  // what a TTL index removes on MongoDB and the embedded engine keeps for ever
  report.expiredCounters = await removeExpiredCounters(now);
  report.settledNotifications = await removeSettledNotifications(now);
  report.expiredProofPayloads = await removeExpiredProofPayloads(now);
  report.expiredLoginCodes = await removeExpiredLoginCodes(now);
  report.unclaimedProofImages = await removeUnclaimedProofImages(now);
  report.searchFieldsFilled = await backfillSearchFields();
  report.riskAssessed = await assessDuePlayers(now);
  // claw-backs still owed take what the players' balances now cover
  report.clawBacksSettled = await collectOwed();
  // the dashboard's figures: each day once it has been over for an hour, and the live ones every 30 s
  report.daysRolledUp = await rollUpClosedDays(now);
  report.liveFigures = (await refreshLiveFigures(now, { force: report.daysRolledUp > 0 })) ? 1 : 0;
  // the hot wallet's sender: the open batch confirmed, refunded, re-queued or re-sent, then the next one signed
  const payouts = await runPayoutRound();
  report.payoutsBatched = payouts.batched;
  report.payoutsConfirmed = payouts.confirmed;
  report.payoutsBounced = payouts.bounced;
  report.payoutsRequeued = payouts.requeued;
  return report;
}

export interface RecoverySweep {
  /** Resolves once the sweep in progress (if any) has finished; no further sweeps start. */
  stop(): Promise<void>;
}

/**
 * Runs the sweep on this instance every `intervalMs`, under a lease so instances sharing the database
 * sweep one at a time; a holder that dies lets the lease run out within `2 × intervalMs`. The first pass
 * starts at once and start-up does not wait for it.
 */
export function startRecoverySweep({
  logger,
  intervalMs = SWEEP_INTERVAL_MS,
  graceMs = SWEEP_GRACE_MS,
}: {
  logger: Logger;
  intervalMs?: number;
  graceMs?: number;
}): RecoverySweep {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = (async () => {
      try {
        const report = await runIfFree(SWEEP_LEASE, () => sweepOnce(graceMs), { ttlMs: Math.max(2 * intervalMs, 3_000) });
        const finished = report && Object.entries(report).filter(([step, count]) => count > 0 && !HOUSEKEEPING.has(step));
        if (finished?.length) logger.warn({ recovered: Object.fromEntries(finished) }, 'recovery sweep finished interrupted operations');
      } catch (error) {
        // the database may be away: the next pass tries again
        logger.error({ err: error }, 'recovery sweep failed');
      }
      if (!stopped) timer = setTimeout(tick, intervalMs).unref();
    })();
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
