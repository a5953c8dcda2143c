import type { Types } from 'mongoose';
import { faultPoint } from '../../lib/faults';
import { isDuplicateKey } from '../../db/mongoErrors';
import { MissionModel, UserMissionModel } from './mission.models';

/**
 * A mission's places: `completions` counts the progress records done or waiting for review (`seated`), and a capped
 * mission refuses a claim once they reach `cap`, however many race.
 *
 * The counter and the progress are two records, so every change goes through a hold in the mission's `seating`:
 * - a claim takes a place (`completions + 1`, a hold for its progress) in one conditional update, then marks its progress
 *   done or pending and `seated`, then settles the hold;
 * - a first claim (Auto, never started) takes a place for a progress it has not written yet, its hold naming the player and the
 *   day, then writes the progress done and seated at once, then settles the hold; settling a hold whose progress is not written
 *   first writes it, released, so the claim finds it there and seats nothing in the place given back;
 * - a rejection holds the place of the progress it rejects, marks it rejected and not seated, then settles the hold.
 *
 * Settling looks at the progress: a seated one done or pending keeps the place, anything else gives it back, each in one
 * conditional update on the hold, so it happens once. Giving back first marks the progress released, and a claim seats
 * only a progress that is not, so a claim slow enough for the sweep to settle its hold cannot seat it without a place. A crash between two steps leaves the hold, which the next claim
 * of the same progress or the recovery sweep settles by the same rule.
 */

/** A first claim's hold, taken before its progress exists: the player and the day name the progress it is for. */
interface FirstClaim {
  user: Types.ObjectId;
  day: string | null;
}

/**
 * Takes a place for this progress, or finds the one a retry of the same claim took. False when none was taken: every place
 * is taken, or a simultaneous claim of the same progress took one and has already settled it.
 */
export async function takeSeat(
  missionId: Types.ObjectId,
  progressId: Types.ObjectId,
  cap: number | null | undefined,
  now: Date,
): Promise<boolean> {
  if (await addHold(missionId, { progress: progressId, at: now }, cap, { 'seating.progress': { $ne: progressId } })) {
    // a new place: the progress may be seated in it, whatever an earlier hold's release said
    await UserMissionModel.updateOne({ _id: progressId, seatReleased: true }, { $set: { seatReleased: false } });
    await faultPoint('mission:after-seat');
    return true;
  }
  return !!(await MissionModel.exists({ _id: missionId, 'seating.progress': progressId }));
}

/** One conditional write: a place (`completions + 1`) and its hold, unless `unless` or the cap says otherwise. */
async function addHold(missionId: Types.ObjectId, hold: Record<string, unknown>, cap: number | null | undefined, unless: object) {
  const took = await MissionModel.updateOne(
    { _id: missionId, ...unless, ...(cap ? { completions: { $lt: cap } } : {}) },
    { $inc: { completions: 1 }, $push: { seating: hold } },
  );
  return took.modifiedCount > 0;
}

/**
 * A first claim's place, for a progress it is about to write (`progressId`): the hold names the player and the day. When this
 * player already holds one (the same claim, retried after a crash before it wrote the progress), that one is theirs: its
 * progress id is answered. Null when every place is taken.
 */
export async function takeFirstSeat(
  missionId: Types.ObjectId,
  progressId: Types.ObjectId,
  cap: number | null | undefined,
  now: Date,
  first: FirstClaim,
): Promise<Types.ObjectId | null> {
  const hold = { progress: progressId, at: now, ...first };
  // one write in the usual case: no hold of this player on the mission
  let took = await addHold(missionId, hold, cap, { 'seating.user': { $ne: first.user } });
  if (!took) {
    const held = await MissionModel.findOne({ _id: missionId, 'seating.user': first.user }, { seating: 1 }).lean();
    const own = held?.seating.find((h) => String(h.user) === String(first.user) && (h.day ?? null) === first.day);
    if (own?.progress) return own.progress;
    // a hold of this player for another day, or none: a place like any other
    took = await addHold(missionId, hold, cap, { 'seating.progress': { $ne: progressId } });
  }
  if (!took) return null;
  await faultPoint('mission:after-seat');
  return progressId;
}

/** Settles the hold of a progress just seated by the claim that holds it: it keeps its place. */
export async function keepSeat(missionId: Types.ObjectId, progressId: Types.ObjectId): Promise<void> {
  await MissionModel.updateOne({ _id: missionId, 'seating.progress': progressId }, { $pull: { seating: { progress: progressId } } });
}

/** Holds the place of a seated progress about to be rejected, so that giving it back survives a crash. */
export async function holdSeatForRelease(missionId: Types.ObjectId, progressId: Types.ObjectId, now: Date): Promise<void> {
  await MissionModel.updateOne(
    { _id: missionId, 'seating.progress': { $ne: progressId } },
    { $push: { seating: { progress: progressId, at: now } } },
  );
}

/** Whether this progress keeps a place: seated, and done or waiting for review. */
async function keepsPlace(progressId: Types.ObjectId): Promise<boolean> {
  const progress = await UserMissionModel.findById(progressId, { status: 1, seated: 1 }).lean();
  return !!progress?.seated && (progress.status === 'done' || progress.status === 'pending');
}

/** A first claim's hold whose progress the sweep may find unwritten (the claim stopped in between), with its mission's terms. */
interface UnwrittenProgress extends FirstClaim {
  at: Date;
  category: Types.ObjectId;
  coin: Types.ObjectId;
  reward: number;
}

/**
 * Writes the progress a first claim's hold is for, released and not seated, unless the claim wrote it first: the claim, finding
 * its player's progress already there, no longer seats it in the place given back, and takes a new one (`claims.ts`).
 */
async function writeReleased(missionId: Types.ObjectId, progressId: Types.ObjectId, hold: UnwrittenProgress) {
  const { user, day } = hold;
  try {
    await UserMissionModel.updateOne(
      { user, mission: missionId, day },
      {
        $setOnInsert: {
          _id: progressId,
          ...{ user, mission: missionId, day, category: hold.category, coin: hold.coin, reward: hold.reward },
          ...{ status: 'started', startedAt: hold.at, seatReleased: true, uncounted: true },
        },
      },
      { upsert: true, setDefaultsOnInsert: true },
    );
  } catch (error) {
    // real MongoDB: the claim's own write won the unique (user, mission, day) index
    if (!isDuplicateKey(error)) throw error;
  }
}

/**
 * Settles this progress's hold, if any: a seated progress done or pending keeps its place, any other gives it back.
 * Before giving it back the progress is marked released (only while unseated), so a claim still holding the place (a
 * slow one the sweep took for a crash's) can no longer seat it; if it was seated meanwhile, it keeps the place.
 */
export async function settleSeat(missionId: Types.ObjectId, progressId: Types.ObjectId, unwritten?: UnwrittenProgress): Promise<void> {
  let keeps = await keepsPlace(progressId);
  if (!keeps) {
    if (unwritten) await writeReleased(missionId, progressId, unwritten);
    await UserMissionModel.updateOne({ _id: progressId, seated: { $ne: true } }, { $set: { seatReleased: true } });
    keeps = await keepsPlace(progressId);
  }
  await MissionModel.updateOne(
    { _id: missionId, 'seating.progress': progressId },
    { $pull: { seating: { progress: progressId } }, ...(keeps ? {} : { $inc: { completions: -1 } }) },
  );
}

/** Settles the holds a crash left for longer than `olderThanMs`; returns how many. */
export async function settleStaleSeats(olderThanMs: number): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const missions = await MissionModel.find({ 'seating.at': { $lte: cutoff } }, { seating: 1, category: 1, coin: 1, reward: 1 })
    .limit(100)
    .lean();
  let settled = 0;
  for (const mission of missions)
    for (const hold of mission.seating)
      if (hold.at && hold.at <= cutoff && hold.progress) {
        const { category, coin, reward } = mission;
        const unwritten = hold.user ? { user: hold.user, day: hold.day ?? null, at: hold.at, category, coin, reward } : undefined;
        await settleSeat(mission._id, hold.progress, unwritten);
        settled++;
      }
  return settled;
}

/**
 * Counts, once, the places of a mission whose progress predates the counter (the demo's seeded history, or data from
 * before it): its done and pending records not seated. Later claims are seated and counted by their own steps.
 */
export async function countEarlierCompletions(): Promise<number> {
  const missions = await MissionModel.find({ completionsCounted: { $ne: true } }, { _id: 1 }).lean();
  for (const mission of missions) {
    const earlier = await UserMissionModel.countDocuments({
      mission: mission._id,
      status: { $in: ['done', 'pending'] },
      seated: { $ne: true },
    });
    await MissionModel.updateOne(
      { _id: mission._id, completionsCounted: { $ne: true } },
      { $inc: { completions: earlier }, $set: { completionsCounted: true } },
    );
  }
  return missions.length;
}
