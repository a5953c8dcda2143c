import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDuplicateKey } from '../../db/mongoErrors';
import { measureJob } from '../../lib/metrics';
import { JobLeaseModel } from './jobLease.model';

/**
 * The one lease of the product: which instance runs start-up, the recovery sweep, Telegram's long poll and
 * the notification sender. A lease is held until a time; a holder that dies lets it run out, so the next
 * instance takes over in seconds.
 */

/**
 * How long a lease lasts unless renewed (LEASE_TTL_MS): renewed every third of it, so a holder survives a pause of
 * two thirds (a long GC, a slow database), and an instance that died is replaced within it plus a third.
 */
export const DEFAULT_LEASE_MS = 3_000;

/** The lease document exists before anyone competes for it, so taking it is one conditional update. */
async function ensureLease(name: string) {
  try {
    await JobLeaseModel.updateOne({ name }, { $setOnInsert: { holder: null, heldUntil: new Date(0) } }, { upsert: true });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/**
 * Takes or renews the lease `name` for `holder` until now + ms. One conditional update: it succeeds only
 * for the current holder or once the last holder let it run out, so two instances never hold it.
 */
export async function holdLease(name: string, holder: string, now: Date, ms: number): Promise<boolean> {
  await ensureLease(name);
  const taken = await JobLeaseModel.updateOne(
    { name, $or: [{ holder }, { heldUntil: { $lte: now } }] },
    { $set: { holder, heldUntil: new Date(now.getTime() + ms) } },
  );
  return taken.matchedCount === 1;
}

/** Lets the lease go at once (the job ended, or a clean shutdown), so another instance need not wait for it to run out. */
export async function releaseLease(name: string, holder: string): Promise<void> {
  await JobLeaseModel.updateOne({ name, holder }, { $set: { holder: null, heldUntil: new Date(0) } });
}

/** A pass of the job `name` that started at `started` ended without an error (kept if it is the latest). */
export async function recordPass(name: string, started: Date): Promise<void> {
  await JobLeaseModel.updateOne({ name }, { $max: { lastPassStartedAt: started } });
}

/** When the last pass of the job `name` that ended without an error started, or null before the first. */
export async function lastPassOf(name: string): Promise<Date | null> {
  return (await JobLeaseModel.findOne({ name }, { lastPassStartedAt: 1 }).lean())?.lastPassStartedAt ?? null;
}

export interface LeaseOptions {
  /** How long the lease lasts unless renewed; it is renewed every third of this while the job runs. */
  ttlMs?: number;
  /** How often a waiting instance asks again. */
  pollMs?: number;
}

/** Runs `job` while holding `name`, renewing it every third of ttlMs; the lease is released when the job ends. */
async function whileHolding<T>(name: string, holder: string, ttlMs: number, job: () => Promise<T>): Promise<T> {
  const renew = setInterval(() => {
    holdLease(name, holder, new Date(), ttlMs).catch(() => undefined);
  }, ttlMs / 3);
  renew.unref();
  try {
    // the metrics name the job, never the record a lease is about (`broadcast-audience:<id>` is `broadcast-audience`)
    return await measureJob(name.split(':')[0]!, job);
  } finally {
    clearInterval(renew);
    await releaseLease(name, holder).catch(() => undefined);
  }
}

/**
 * Runs `job` while holding the named lease, so instances sharing the database run it one at a time: the
 * others wait and run it after (finding nothing left to do), or take over once the lease of a holder that
 * died has run out (ttlMs, seconds).
 */
export async function runExclusively<T>(
  name: string,
  job: () => Promise<T>,
  { ttlMs = DEFAULT_LEASE_MS, pollMs = 200 }: LeaseOptions = {},
): Promise<T> {
  const holder = randomUUID();
  while (!(await holdLease(name, holder, new Date(), ttlMs))) await sleep(pollMs);
  return whileHolding(name, holder, ttlMs, job);
}

/** Runs `job` if the lease is free now, and otherwise skips it: undefined when another instance holds it. */
export async function runIfFree<T>(
  name: string,
  job: () => Promise<T>,
  { ttlMs = DEFAULT_LEASE_MS }: LeaseOptions = {},
): Promise<T | undefined> {
  const holder = randomUUID();
  if (!(await holdLease(name, holder, new Date(), ttlMs))) return undefined;
  return whileHolding(name, holder, ttlMs, job);
}

export interface KeptLease {
  /**
   * Whether this instance may act as the holder now: its last renewal (counted from when it was asked, by this
   * instance's clock) is less than two thirds of the lease old. It turns false a third of the lease before anyone
   * else can take it, so a holder whose renewals stall (a slow database, a long pause) stops before it is replaced.
   */
  readonly held: boolean;
  /** Stops renewing (and asking) and lets the lease go, so another instance takes over at once. */
  stop(): Promise<void>;
}

/**
 * Holds the lease `name` for as long as this instance lives: asks for it every third of ttlMs, which renews it
 * while held and takes it as soon as the last holder let it run out (its instance died, or stopped). `onChange`
 * hears each change of `held` as a renewal finds it (taken, lost to another, or run out unrenewed).
 */
export function keepLease(
  name: string,
  { holder = randomUUID(), ttlMs = DEFAULT_LEASE_MS, onChange }: { holder?: string; ttlMs?: number; onChange?: (held: boolean) => void },
): KeptLease {
  let validUntil = 0;
  let stopped = false;
  let reported = false;
  let asking: Promise<void> = Promise.resolve();
  const held = () => !stopped && Date.now() < validUntil;
  const report = () => {
    if (held() === reported) return;
    reported = held();
    onChange?.(reported);
  };
  // the renewal the database has not answered yet: not doubled while young, given up on after a lease
  let inFlight: { since: number } | null = null;
  const ask = () => {
    report();
    if (inFlight && Date.now() - inFlight.since < ttlMs) return;
    const mine = { since: Date.now() };
    inFlight = mine;
    asking = (async () => {
      const asked = new Date();
      try {
        const taken = await holdLease(name, holder, asked, ttlMs);
        // stopped meanwhile, or answered so late that a later renewal replaced it
        if (stopped || inFlight !== mine) return;
        // counted from the moment it was asked: the database may have taken its time to answer
        validUntil = taken ? asked.getTime() + (2 * ttlMs) / 3 : 0;
      } catch {
        // the database is away: what was held stays held until it runs out here, a third before anyone can take it
      } finally {
        if (inFlight === mine) inFlight = null;
      }
      report();
    })();
  };
  ask();
  const timer = setInterval(ask, ttlMs / 3);
  timer.unref();
  return {
    get held() {
      return held();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // a renewal the database never answers does not hold the stop up for longer than a lease
      await Promise.race([asking, sleep(ttlMs, undefined, { ref: false })]);
      validUntil = 0;
      await releaseLease(name, holder).catch(() => undefined);
    },
  };
}
