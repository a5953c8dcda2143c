import { AppError } from '../../lib/errors';
import { upsertWithRetry } from '../../db/mongoErrors';
import { RateLimitCounterModel } from './rateLimit.model';

/** How many hits one subject may make in each fixed window. */
export interface RateLimit {
  name: string;
  limit: number;
  windowSeconds: number;
}

function windowOf(windowMs: number, now: Date) {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start, resetAt: new Date(start + windowMs) };
}

/**
 * Adds `by` to a counter of the window in one upsert, so every server instance sharing the database
 * counts together and concurrent hits are all counted; returns the count after it.
 */
async function addHits(key: string, by: number, resetAt: Date): Promise<number> {
  const counter = await upsertWithRetry(() =>
    RateLimitCounterModel.findOneAndUpdate(
      { key },
      { $inc: { count: by }, $setOnInsert: { expiresAt: resetAt } },
      { upsert: true, returnDocument: 'after', lean: true },
    ),
  );
  return counter!.count;
}

/** Counts one hit of `subject`; answers whether it is within the limit and when the window ends. */
export async function countHit(rule: RateLimit, subject: string, now: Date) {
  const { start, resetAt } = windowOf(rule.windowSeconds * 1000, now);
  const count = await addHits(`${rule.name}:${subject}:${start}`, 1, resetAt);
  return { allowed: count <= rule.limit, count, resetAt };
}

/** Adds `amount` (bytes, say) to `subject`'s counter of the window; answers the total after it, whether it is within the limit, and when the window ends. */
export async function countAmount(rule: RateLimit, subject: string, amount: number, now: Date) {
  const { start, resetAt } = windowOf(rule.windowSeconds * 1000, now);
  const count = await addHits(`${rule.name}:${subject}:${start}`, amount, resetAt);
  return { allowed: count <= rule.limit, count, resetAt };
}

/** The hits of `subject` in the current window, without adding one, and when the window ends. */
export async function hitsSoFar(rule: RateLimit, subject: string, now: Date) {
  const { start, resetAt } = windowOf(rule.windowSeconds * 1000, now);
  const counter = await RateLimitCounterModel.findOne({ key: `${rule.name}:${subject}:${start}` }, { count: 1 }).lean();
  return { count: counter?.count ?? 0, resetAt };
}

/** Counts one hit and refuses it with 'Too many requests' beyond the limit. */
export async function enforceRateLimit(rule: RateLimit, subject: string, now: Date): Promise<void> {
  if (!(await countHit(rule, subject, now)).allowed) throw new AppError('RATE_LIMITED');
}

/** Removes counters whose window is over (the TTL index does it on MongoDB; the embedded engine never expires). */
export async function removeExpiredCounters(now: Date): Promise<number> {
  return (await RateLimitCounterModel.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
}
