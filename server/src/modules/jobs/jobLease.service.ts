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
  { ttlMs = 10_000, pollMs = 200 }: LeaseOptions = {},
): Promise<T> {
  const holder = randomUUID();
  while (!(await holdLease(name, holder, new Date(), ttlMs))) await sleep(pollMs);
  return whileHolding(name, holder, ttlMs, job);
}

/** Runs `job` if the lease is free now, and otherwise skips it: undefined when another instance holds it. */
export async function runIfFree<T>(name: string, job: () => Promise<T>, { ttlMs = 10_000 }: LeaseOptions = {}): Promise<T | undefined> {
  const holder = randomUUID();
  if (!(await holdLease(name, holder, new Date(), ttlMs))) return undefined;
  return whileHolding(name, holder, ttlMs, job);
}
