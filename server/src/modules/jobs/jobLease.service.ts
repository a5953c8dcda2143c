import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDuplicateKey } from '../../db/mongoErrors';
import { JobLeaseModel } from './jobLease.model';

export interface LeaseOptions {
  /** How long the lease lasts unless renewed; it is renewed every third of this while the job runs. */
  ttlMs?: number;
  /** How often a waiting instance asks again. */
  pollMs?: number;
}

/** The lease document exists before anyone competes for it, so taking it is one conditional update without upsert. */
async function ensureLease(name: string) {
  try {
    await JobLeaseModel.updateOne({ name }, { $setOnInsert: { holder: null, heldUntil: new Date(0) } }, { upsert: true });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/**
 * Runs `job` while holding the named lease in MongoDB, so instances sharing the database run it one at a
 * time: the others wait and run it after (finding nothing left to do), or take over once the lease of a
 * holder that died has run out.
 */
export async function runExclusively<T>(name: string, job: () => Promise<T>, { ttlMs = 60_000, pollMs = 200 }: LeaseOptions = {}): Promise<T> {
  await ensureLease(name);
  const holder = randomUUID();
  for (;;) {
    const now = new Date();
    const taken = await JobLeaseModel.updateOne({ name, heldUntil: { $lte: now } }, { $set: { holder, heldUntil: new Date(now.getTime() + ttlMs) } });
    if (taken.modifiedCount) break;
    await sleep(pollMs);
  }
  const renew = setInterval(() => {
    JobLeaseModel.updateOne({ name, holder }, { $set: { heldUntil: new Date(Date.now() + ttlMs) } }).catch(() => undefined);
  }, ttlMs / 3);
  renew.unref();
  try {
    return await job();
  } finally {
    clearInterval(renew);
    await JobLeaseModel.updateOne({ name, holder }, { $set: { holder: null, heldUntil: new Date(0) } });
  }
}
