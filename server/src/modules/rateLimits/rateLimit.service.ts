import { AppError } from '../../lib/errors';
import { upsertWithRetry } from '../../db/mongoErrors';
import { RateLimitCounterModel } from './rateLimit.model';

/** How many hits one subject may make in each fixed window. */
export interface RateLimit {
  name: string;
  limit: number;
  windowSeconds: number;
  /**
   * Counted in this instance's memory, not in the database: a flood guard that costs no database write per call. With several
   * instances a subject may make up to `limit` calls on each. Only for limits that protect neither money nor sign-in; those
   * stay in the database, counted together by every instance.
   */
  perInstance?: boolean;
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

/** This instance's counters of `perInstance` limits: `<limit>:<subject>` → the window counted, when it ends, and its hits. */
const localCounters = new Map<string, { start: number; end: number; count: number }>();
/** When the memory's counters were last swept of ended windows. */
let localSweptAt = 0;

/** Forgets the counters whose window ended, at most once a second: the memory holds only the subjects of the current windows. */
function sweepLocalCounters(nowMs: number) {
  if (nowMs - localSweptAt < 1000 && nowMs >= localSweptAt) return;
  localSweptAt = nowMs;
  for (const [key, counter] of localCounters) if (counter.end <= nowMs) localCounters.delete(key);
}

/** Counts one hit of `subject` in this instance's memory, in the same fixed windows as the database's counters. */
function countLocalHit(rule: RateLimit, subject: string, now: Date) {
  sweepLocalCounters(now.getTime());
  const { start, resetAt } = windowOf(rule.windowSeconds * 1000, now);
  const key = `${rule.name}:${subject}`;
  const counter = localCounters.get(key);
  if (counter?.start === start) counter.count += 1;
  else localCounters.set(key, { start, end: resetAt.getTime(), count: 1 });
  const count = localCounters.get(key)!.count;
  return { allowed: count <= rule.limit, count, resetAt };
}

/** Counts one hit and refuses it with 'Too many requests' beyond the limit: in memory for a `perInstance` limit, else in the database. */
export async function enforceRateLimit(rule: RateLimit, subject: string, now: Date): Promise<void> {
  const hit = rule.perInstance ? countLocalHit(rule, subject, now) : await countHit(rule, subject, now);
  if (!hit.allowed) throw new AppError('RATE_LIMITED');
}

/** Removes counters whose window is over (the TTL index does it on MongoDB; the embedded engine never expires). */
export async function removeExpiredCounters(now: Date): Promise<number> {
  return (await RateLimitCounterModel.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
}
