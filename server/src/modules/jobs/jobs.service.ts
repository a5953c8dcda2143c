import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { measureJob } from '../../lib/metrics';
import { DEFAULT_LEASE_MS, keepLease, lastPassOf, recordPass } from './jobLease.service';

/**
 * The background jobs: each one runs on the one instance holding its own lease, every its own interval, apart from the
 * others. A job that throws is logged with its name and runs again at its next interval; the others do not notice.
 * Modules export their jobs; the composition root (server/src/jobs.ts) lists them.
 */

/** What a pass did, by step: how many records each step finished, removed, sent or counted. */
export type JobReport = Record<string, number>;

export interface JobContext {
  /** The pass's clock. */
  now: Date;
  /** How old an unfinished operation must be before a recovery step finishes it: younger ones may still be in flight. */
  graceMs: number;
  /** Whether this instance still holds the job's lease: a job checks it before each step that writes. */
  holding: () => boolean;
  /**
   * When the last pass of the job named that ended without an error started, on whichever instance ran it (null before
   * the first): a job that must come after another reads how far that one has got.
   */
  lastPass: (job: string) => Promise<Date | null>;
  logger?: Logger;
}

export interface Job {
  /** The name of its lease and its metrics' label (`gift_job_runs_total{job}`). */
  name: string;
  /** 'recovery' finishes what a crash interrupted (what it finds is logged as such); 'housekeeping' is routine work. */
  kind: 'recovery' | 'housekeeping';
  /** How often its holder runs it; the sweep interval (SWEEP_INTERVAL_MS) when not given. */
  intervalMs?: number;
  /** Counts in a recovery job's report that are routine work, not interrupted operations: not logged as recoveries. */
  routine?: readonly string[];
  run(context: JobContext): Promise<JobReport>;
}

/** One step of a job of steps: its count is reported under its name. */
export interface JobStep {
  name: string;
  run(context: JobContext): Promise<number>;
  /** Routine work inside a recovery job (a backfill, say): its count is not logged as a recovery. */
  routine?: boolean;
}

/** The job's lease ran out under it (its renewals stalled): it stops before its next step, and the new holder runs it. */
class JobLeaseLost extends Error {
  constructor(job: string) {
    super(`${job}: the lease was lost mid-pass; the next holder runs it`);
    this.name = 'JobLeaseLost';
  }
}

/**
 * A job that runs its steps in the order given, each one only while this instance still holds the job's lease (the
 * steps are safe run twice; this keeps that rare). Steps whose order matters belong in one such job.
 */
export function jobOfSteps(job: Omit<Job, 'run' | 'routine'>, steps: readonly JobStep[]): Job {
  return {
    ...job,
    routine: steps.filter((step) => step.routine).map((step) => step.name),
    async run(context) {
      const report: JobReport = {};
      for (const step of steps) {
        if (!context.holding()) throw new JobLeaseLost(job.name);
        report[step.name] = await step.run(context);
      }
      return report;
    },
  };
}

export interface RunningJobs {
  /** Resolves once every pass in progress has finished and every lease is let go; no further pass starts. */
  stop(): Promise<void>;
}

interface Schedule {
  logger: Logger;
  /** The interval of a job that does not name its own. */
  intervalMs: number;
  graceMs: number;
  /** How long a lease lasts unless renewed (LEASE_TTL_MS); every instance asks for each lease every third of it. */
  leaseMs?: number;
}

/**
 * Runs each job every its interval on the one instance holding its lease. Every instance asks for every lease each third
 * of `leaseMs` (renewing the ones it holds), so when a holder dies another takes each of its leases within `leaseMs` and a
 * third, and runs that job at once: a dead instance's work is picked up within a lease and an interval. The first pass of
 * each job starts as soon as this instance holds its lease; start-up does not wait.
 */
export function startJobs(jobs: readonly Job[], { leaseMs = DEFAULT_LEASE_MS, ...schedule }: Schedule): RunningJobs {
  // named as the bot's leases name an instance: which one runs what reads off the leases
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const running = jobs.map((job) => keepRunning(job, holder, leaseMs, schedule));
  return {
    async stop() {
      await Promise.all(running.map((job) => job.stop()));
    },
  };
}

function keepRunning(job: Job, holder: string, leaseMs: number, { logger: parent, intervalMs, graceMs }: Schedule): RunningJobs {
  const logger = parent.child({ job: job.name });
  const every = job.intervalMs ?? intervalMs;
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, ms).unref();
  };
  const lease = keepLease(job.name, {
    holder,
    ttlMs: leaseMs,
    onChange: (held) => {
      if (!held) return logger.warn('job: this instance no longer holds its lease');
      logger.info('job: this instance holds its lease');
      // taken over (or first taken): run now, not at the next interval
      if (!running) schedule(0);
    },
  });
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      if (!lease.held) return;
      try {
        const context = { now: new Date(), graceMs, holding: () => lease.held, lastPass: lastPassOf, logger };
        logPass(logger, job, await measureJob(job.name, () => job.run(context)));
        await recordPass(job.name, context.now);
      } catch (error) {
        // the lease ran out mid-pass (the next holder runs it), or a step failed (the next pass tries again)
        if (error instanceof JobLeaseLost) logger.warn(error.message);
        else logger.error({ err: error }, `job ${job.name} failed; it runs again in ${every} ms`);
      }
    })().finally(() => {
      running = null;
      schedule(every);
    });
  };
  schedule(every);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await lease.stop();
    },
  };
}

/** A recovery job's finds are worth an operator's eye; routine counts are not. */
function logPass(logger: Logger, job: Job, report: JobReport) {
  if (job.kind !== 'recovery') return;
  const routine = new Set(job.routine);
  const finished = Object.entries(report).filter(([step, count]) => count > 0 && !routine.has(step));
  if (finished.length) logger.warn({ recovered: Object.fromEntries(finished) }, 'job finished interrupted operations');
}

/**
 * Runs every job once now, in the order listed, in this process and without their leases (tests). Each job runs even
 * when one before it threw; the first error is thrown once all have run. Returns the steps' counts of every job together.
 */
export async function runEachOnce(jobs: readonly Job[], context: Pick<JobContext, 'now' | 'graceMs'>): Promise<JobReport> {
  const report: JobReport = {};
  const failures: unknown[] = [];
  // the passes of this call: a job listed after another sees that one's pass
  const passed = new Map<string, Date>();
  const lastPass = (name: string) => Promise.resolve(passed.get(name) ?? null);
  for (const job of jobs) {
    try {
      Object.assign(report, await job.run({ ...context, holding: () => true, lastPass }));
      passed.set(job.name, context.now);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
  return report;
}
