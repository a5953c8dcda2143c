import type { Types } from 'mongoose';
import { AppError } from '../../lib/errors';
import { objectId } from '../../db/ids';
import { UserMissionModel } from './mission.models';

/** How long a reviewer holds a claim they opened; the console renews it every minute while the claim stays open. */
const REVIEW_LOCK_MS = 5 * 60_000;

/** The condition of a claim this reviewer may take or decide: no one holds it, they do, or the hold has run out. */
export const freeFor = (reviewer: Types.ObjectId, now: Date) => ({
  $or: [{ lockedBy: null }, { lockedBy: reviewer }, { lockedUntil: { $lte: now } }],
});

/** The fields a decision sets to let the claim go. */
export const UNLOCKED = { lockedBy: null, lockedByName: '', lockedUntil: null };

interface LockFields {
  status?: string;
  lockedBy?: Types.ObjectId | null;
  lockedByName?: string;
  lockedUntil?: Date | null;
}

/** 409 naming who holds the claim and until when (UTC, hours and minutes). */
const heldBy = (lock: LockFields) => {
  const until = (lock.lockedUntil ?? new Date(0)).toISOString();
  // `at`: the whole time, for the console to write in the reviewer's own clock and digits
  return new AppError('CLAIM_LOCKED', { name: lock.lockedByName || '?', until: until.slice(11, 16), at: until });
};

/** Whether another reviewer holds this claim now. */
const heldByAnother = (lock: LockFields, reviewer: Types.ObjectId, now: Date) =>
  !!lock.lockedBy && !lock.lockedBy.equals(reviewer) && !!lock.lockedUntil && lock.lockedUntil > now;

/**
 * Why this reviewer cannot take or decide the claim (404, not pending, or another reviewer's hold); returns when nothing stands
 * in the way any more (a hold let go meanwhile), for the caller to try again.
 */
export async function refuseUnlessFree(id: Types.ObjectId, reviewer: Types.ObjectId, now: Date): Promise<void> {
  const current = await UserMissionModel.findById(id, { status: 1, lockedBy: 1, lockedByName: 1, lockedUntil: 1 }).lean<LockFields>();
  if (!current) throw new AppError('NOT_FOUND');
  if (current.status !== 'pending') throw new AppError('MISSION_NOT_PENDING', { status: current.status ?? '' });
  if (heldByAnother(current, reviewer, now)) throw heldBy(current);
}

/**
 * A reviewer opens a pending claim: one conditional write takes it (free, theirs, or run out) for REVIEW_LOCK_MS, or renews their
 * own hold. Another reviewer's live hold answers 409 naming them. Answers the hold.
 */
export async function lockClaim(claimId: string, reviewer: { id: string; username: string }, now: Date) {
  const id = objectId(claimId);
  const by = objectId(reviewer.id);
  // a hold let go between the write and the read that explains it: the write is tried again
  for (let attempt = 0; attempt < 3; attempt++) {
    const locked = await UserMissionModel.findOneAndUpdate(
      { _id: id, status: 'pending', ...freeFor(by, now) },
      { $set: { lockedBy: by, lockedByName: reviewer.username, lockedUntil: new Date(now.getTime() + REVIEW_LOCK_MS) } },
      { returnDocument: 'after', projection: { lockedBy: 1, lockedByName: 1, lockedUntil: 1 } },
    ).lean<LockFields>();
    if (locked) return presentLock(locked, now);
    await refuseUnlessFree(id, by, now);
  }
  throw new AppError('UNAVAILABLE');
}

/** The reviewer leaves the claim undecided: their hold (only theirs) is let go at once rather than at its expiry. */
export async function releaseClaim(claimId: string, reviewerId: string): Promise<void> {
  await UserMissionModel.updateOne({ _id: objectId(claimId), lockedBy: objectId(reviewerId) }, { $set: UNLOCKED });
}

/** A claim's hold as the console shows it: who and until when while it lasts, nulls once it has run out. */
export function presentLock(lock: LockFields, now = new Date()) {
  const live = !!lock.lockedBy && !!lock.lockedUntil && lock.lockedUntil > now;
  return {
    lockedBy: live ? String(lock.lockedBy) : null,
    lockedByName: live ? (lock.lockedByName ?? '') : '',
    lockedUntil: live ? lock.lockedUntil! : null,
  };
}
