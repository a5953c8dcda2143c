import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { recoverPendingEntries, releasePostedKeys } from '../ledger/ledger.service';
import { DEFAULT_LEASE_MS, keepLease } from '../jobs/jobLease.service';
import { measureJob } from '../../lib/metrics';
import { refreshLiveFigures, rollUpClosedDays } from '../dashboard/dashboard.service';
import { rollUpAnalytics } from '../dashboard/analytics.service';
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

/**
 * How often the instance holding the sweep's lease sweeps, and how old an unfinished operation must be before the
 * sweep finishes it: older than any live request can take between two of its writes (a database call gives up after
 * 5 s, see db/connect.ts), so the sweep does not race a request still running. A dead instance's half-done work is
 * then finished within grace + interval (8 s) of its death.
 */
const SWEEP_INTERVAL_MS = 2_000;
const SWEEP_GRACE_MS = 6_000;
const SWEEP_LEASE = 'recovery-sweep';

/** The sweep's lease ran out under it (its renewals stalled): it stops before the next step, and the new holder sweeps. */
class SweepLeaseLost extends Error {
  constructor() {
    super('the recovery sweep lease was lost mid-pass');
    this.name = 'SweepLeaseLost';
  }
}

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
 * entries recorded but not posted first, so the operations after them find their entries posted. The hot wallet's
 * open batch is moved on before them (it posts nothing), and the next batch is signed last, once holds are reconciled.
 */
export async function sweepOnce(
  graceMs = SWEEP_GRACE_MS,
  now = new Date(),
  { holding = () => true }: { holding?: () => boolean } = {},
): Promise<SweepReport> {
  const report: SweepReport = {};
  // each step starts only while this instance still holds the lease (the steps are safe run twice, this keeps them rare)
  const guarded = <T>(run: () => Promise<T>): Promise<T> => {
    if (!holding()) throw new SweepLeaseLost();
    return run();
  };
  // the hot wallet's open batch first (a dead holder's is confirmed or re-sent at once); new ones are signed last
  const open = await guarded(() => runPayoutRound({ holding, sendNew: false }));
  report.pendingEntries = await guarded(() => recoverPendingEntries(graceMs));
  report.withdrawals = await guarded(() => recoverWithdrawals(graceMs));
  report.stakes = await guarded(() => recoverStakes(graceMs));
  report.missions = await guarded(() => recoverApprovedMissions(graceMs));
  report.missionSeats = await guarded(() => settleStaleSeats(graceMs));
  report.completionsCounted = await guarded(() => countEarlierCompletions());
  report.miningMoves = await guarded(() => recoverMiningMoves(graceMs));
  report.referrals = await guarded(() => recoverReferrals(graceMs));
  report.referralsQualified = await guarded(() => qualifyReferrals());
  // an approved gift is posted (and audited as its approver's) before the audit sweep would name the operator who asked
  report.approvedGifts = await guarded(() => recoverApprovedGifts(graceMs));
  report.giftAudits = await guarded(() => recoverGiftAudits(graceMs));
  // money permissions approved but not yet given (or asked but not yet listed) when a crash came
  report.accountGrants = await guarded(() => recoverAccountGrants(graceMs, now));
  // a mission's reward change decided (live, or turned down) but not yet audited
  report.rewardAudits = await guarded(() => recoverRewardAudits(graceMs, now));
  // App Config's rewards, a coin's brakes and a staking offer's terms: decided, not yet audited
  report.configRewardAudits = await guarded(() => recoverConfigRewardAudits(graceMs, now));
  report.changeAudits = await guarded(
    async () => (await recoverChangeAudits(coinChanges, graceMs, now)) + (await recoverChangeAudits(offerChanges, graceMs, now)),
  );
  report.holds = await guarded(() => reconcileHolds(graceMs));
  report.releasedKeys = await guarded(() => releasePostedKeys(now));
  // what a TTL index removes on MongoDB and the embedded engine keeps for ever
  report.expiredCounters = await guarded(() => removeExpiredCounters(now));
  report.settledNotifications = await guarded(() => removeSettledNotifications(now));
  report.expiredProofPayloads = await guarded(() => removeExpiredProofPayloads(now));
  report.expiredLoginCodes = await guarded(() => removeExpiredLoginCodes(now));
  report.unclaimedProofImages = await guarded(() => removeUnclaimedProofImages(now));
  report.searchFieldsFilled = await guarded(() => backfillSearchFields());
  report.riskAssessed = await guarded(() => assessDuePlayers(now));
  // claw-backs still owed take what the players' balances now cover
  report.clawBacksSettled = await guarded(() => collectOwed());
  // the dashboard's figures: each day once it has been over for an hour, and the live ones every 30 s
  report.daysRolledUp = await guarded(() => rollUpClosedDays(now));
  report.liveFigures = (await refreshLiveFigures(now, { force: report.daysRolledUp > 0 })) ? 1 : 0;
  // and the analytics' (missions' funnels, retention, referrers), by the same rule
  report.analyticsDaysRolledUp = await guarded(() => rollUpAnalytics(now));
  // the hot wallet's sender: the open batch confirmed, refunded, re-queued or re-sent, then the next one signed
  const payouts = await guarded(() => runPayoutRound({ holding }));
  report.payoutsBatched = payouts.batched;
  report.payoutsConfirmed = open.confirmed + payouts.confirmed;
  report.payoutsBounced = open.bounced + payouts.bounced;
  report.payoutsRequeued = open.requeued + payouts.requeued;
  return report;
}

export interface RecoverySweep {
  /** Resolves once the sweep in progress (if any) has finished and the lease is let go; no further sweeps start. */
  stop(): Promise<void>;
}

/**
 * Runs the sweep every `intervalMs` on the one instance holding its lease. Every instance asks for the lease every
 * third of `leaseMs` (renewing it while it holds it), so when the holder dies another takes it within `leaseMs` and a
 * third, and sweeps at once. The first pass starts as soon as this instance holds the lease; start-up does not wait.
 */
export function startRecoverySweep({
  logger,
  intervalMs = SWEEP_INTERVAL_MS,
  graceMs = SWEEP_GRACE_MS,
  leaseMs = DEFAULT_LEASE_MS,
}: {
  logger: Logger;
  intervalMs?: number;
  graceMs?: number;
  leaseMs?: number;
}): RecoverySweep {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, ms).unref();
  };
  const lease = keepLease(SWEEP_LEASE, {
    // named as the bot's leases name an instance: which one sweeps (and pays) reads off the lease
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    ttlMs: leaseMs,
    onChange: (held) => {
      if (!held) return logger.warn('recovery sweep: this instance no longer holds the lease');
      logger.info('recovery sweep: this instance holds the lease');
      // taken over (or first taken): sweep now, not at the next interval
      if (!running) schedule(0);
    },
  });
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      if (!lease.held) return;
      try {
        const report = await measureJob(SWEEP_LEASE, () => sweepOnce(graceMs, new Date(), { holding: () => lease.held }));
        const finished = Object.entries(report).filter(([step, count]) => count > 0 && !HOUSEKEEPING.has(step));
        if (finished.length) logger.warn({ recovered: Object.fromEntries(finished) }, 'recovery sweep finished interrupted operations');
      } catch (error) {
        // the lease ran out mid-pass (the next holder sweeps), or the database is away (the next pass tries again)
        if (error instanceof SweepLeaseLost) logger.warn(error.message);
        else logger.error({ err: error }, 'recovery sweep failed');
      }
    })().finally(() => {
      running = null;
      schedule(intervalMs);
    });
  };
  schedule(intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await lease.stop();
    },
  };
}
