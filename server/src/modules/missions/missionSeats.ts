import type { Types } from 'mongoose';
import { faultPoint } from '../../lib/faults';
import { MissionModel, UserMissionModel } from './mission.models';

/**
 * A mission's places: `completions` counts the progress records done or waiting for review (`seated`), and a capped
 * mission refuses a claim once they reach `cap`, however many race.
 *
 * The counter and the progress are two records, so every change goes through a hold in the mission's `seating`:
 * - a claim takes a place (`completions + 1`, a hold for its progress) in one conditional update, then marks its progress
 *   done or pending and `seated`, then settles the hold;
 * - a rejection holds the place of the progress it rejects, marks it rejected and not seated, then settles the hold.
 *
 * Settling looks at the progress: a seated one done or pending keeps the place, anything else gives it back, each in one
 * conditional update on the hold, so it happens once. Giving back first marks the progress released, and a claim seats
 * only a progress that is not, so a claim slow enough for the sweep to settle its hold cannot seat it without a place. A crash between two steps leaves the hold, which the next claim
 * of the same progress or the recovery sweep settles by the same rule.
 */

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
  const took = await MissionModel.updateOne(
    { _id: missionId, 'seating.progress': { $ne: progressId }, ...(cap ? { completions: { $lt: cap } } : {}) },
    { $inc: { completions: 1 }, $push: { seating: { progress: progressId, at: now } } },
  );
  if (took.modifiedCount > 0) {
    // a new place: the progress may be seated in it, whatever an earlier hold's release said
    await UserMissionModel.updateOne({ _id: progressId, seatReleased: true }, { $set: { seatReleased: false } });
    await faultPoint('mission:after-seat');
    return true;
  }
  return !!(await MissionModel.exists({ _id: missionId, 'seating.progress': progressId }));
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

/**
 * Settles this progress's hold, if any: a seated progress done or pending keeps its place, any other gives it back.
 * Before giving it back the progress is marked released (only while unseated), so a claim still holding the place (a
 * slow one the sweep took for a crash's) can no longer seat it; if it was seated meanwhile, it keeps the place.
 */
export async function settleSeat(missionId: Types.ObjectId, progressId: Types.ObjectId): Promise<void> {
  let keeps = await keepsPlace(progressId);
  if (!keeps) {
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
  const missions = await MissionModel.find({ 'seating.at': { $lte: cutoff } }, { seating: 1 })
    .limit(100)
    .lean();
  let settled = 0;
  for (const mission of missions)
    for (const hold of mission.seating)
      if (hold.at && hold.at <= cutoff && hold.progress) {
        await settleSeat(mission._id, hold.progress);
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
