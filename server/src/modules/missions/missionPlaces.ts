import type { Types } from 'mongoose';
import { migrateOnce } from '../../db/migrationProgress';
import { operationStates } from '../ledger/operationStates.service';
import { MissionModel, UserMissionModel } from './mission.models';

/**
 * A mission's places: `completions` counts the progress records done or waiting for review, and a capped mission refuses a
 * claim once they reach `cap`, however many race. A place is taken or given back only inside an operation of the money engine
 * (missions.kinds.ts), in one conditional write on the mission that records the operation's key with the change
 * (`placeKeys`): the operation's retry, or the engine's sweep finishing it after a crash, finds its key there and changes
 * nothing more. So no place is held by hand: what a crash interrupted is an operation the engine finishes, taking or giving
 * back its place once. A key is forgotten once its operation is done (the engine runs it no more).
 */

/**
 * Takes a place for this operation (`completions + 1`, its key recorded), or finds the one it took. False: every place is
 * taken (`cap`, as the claim read it; none: no limit).
 */
export async function takePlace(missionId: Types.ObjectId, key: string, cap: number | null | undefined): Promise<boolean> {
  const took = await MissionModel.updateOne(
    { _id: missionId, placeKeys: { $ne: key }, ...(cap ? { completions: { $lt: cap } } : {}) },
    { $inc: { completions: 1 }, $push: { placeKeys: key } },
  );
  return took.modifiedCount > 0 || !!(await MissionModel.exists({ _id: missionId, placeKeys: key }));
}

/** Undoes this operation's `takePlace` (its claim was refused after all), once: nothing if it took none. */
export async function undoPlace(missionId: Types.ObjectId, key: string): Promise<void> {
  await MissionModel.updateOne({ _id: missionId, placeKeys: key }, { $inc: { completions: -1 }, $pull: { placeKeys: key } });
}

/** Gives back the place of a claim this operation decides against (a rejection), once: its key is recorded with it. */
export async function givePlaceBack(missionId: Types.ObjectId, key: string): Promise<void> {
  await MissionModel.updateOne(
    { _id: missionId, placeKeys: { $ne: key }, completions: { $gt: 0 } },
    { $inc: { completions: -1 }, $push: { placeKeys: key } },
  );
}

/** Forgets the keys of operations that are done (up to 100 missions a pass); returns how many. */
export async function forgetDonePlaceKeys(): Promise<number> {
  const missions = await MissionModel.find({ 'placeKeys.0': { $exists: true } }, { placeKeys: 1 })
    .limit(100)
    .lean();
  let forgotten = 0;
  for (const mission of missions) {
    const states = await operationStates(mission.placeKeys);
    const done = mission.placeKeys.filter((key) => states.get(key) === 'done');
    if (!done.length) continue;
    await MissionModel.updateOne({ _id: mission._id }, { $pullAll: { placeKeys: done } });
    forgotten += done.length;
  }
  return forgotten;
}

/**
 * Counts the places of this mission (or of every mission) whose progress predates the counter (the demo's seeded history,
 * data from before it), once: its done and pending records, less those an older version seated in a place it counted.
 * A claim counts its mission's first, so every later place is taken by an operation of its own.
 */
export async function countEarlierCompletions(only?: Types.ObjectId): Promise<number> {
  const missions = await MissionModel.find({ ...(only ? { _id: only } : {}), completionsCounted: { $ne: true } }, { _id: 1 }).lean();
  for (const mission of missions) {
    const earlier = await UserMissionModel.collection.countDocuments({
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

/** A place an older version held by hand on the mission (`seating`) while its claim or rejection was in flight. */
interface OlderHold {
  progress?: Types.ObjectId;
}

/**
 * Settles one hold an older version left, in one write conditional on what was read (read again if it changed meanwhile):
 * - an operation of this version took its own place for the progress (its key names it): the hold's place goes back;
 * - the progress is done or waiting for review: it keeps the place;
 * - the progress's credit is an operation not yet admitted (`mission:<progress>`): the place becomes that operation's, under
 *   its key, so its admit takes none again;
 * - otherwise (the claim never recorded, or rejected): the place goes back.
 */
async function settleOlderHold(missionId: Types.ObjectId, progressId: Types.ObjectId): Promise<void> {
  const held = { _id: missionId, 'seating.progress': progressId };
  const pull = { $pull: { seating: { progress: progressId } } };
  const creditKey = `mission:${String(progressId)}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const mission = await MissionModel.collection.findOne<{ placeKeys?: string[] }>(held, { projection: { placeKeys: 1 } });
    if (!mission) return;
    const keys = mission.placeKeys ?? [];
    const own = keys.filter((key) => key.includes(String(progressId)));
    const unchanged = own.length ? { placeKeys: { $all: own } } : { placeKeys: { $nin: [creditKey, new RegExp(String(progressId))] } };
    const progress = await UserMissionModel.findById(progressId, { status: 1 }).lean();
    const credit = (await operationStates([creditKey])).get(creditKey);
    let update: Record<string, unknown>;
    if (own.length) update = { ...pull, $inc: { completions: -1 } };
    else if (progress?.status === 'done' || progress?.status === 'pending') update = pull;
    else if (credit && credit !== 'done') update = { ...pull, $push: { placeKeys: creditKey } };
    else update = { ...pull, $inc: { completions: -1 } };
    if ((await MissionModel.collection.updateOne({ ...held, ...unchanged }, update)).modifiedCount) return;
  }
}

/**
 * Start-up, once: the places an older version held by hand (`seating`) are settled as its operations would have them (see
 * `settleOlderHold`). Returns how many holds it settled. (The older version's `seated` marks stay on its records: the count of
 * earlier completions reads them; nothing else does.)
 */
export async function finishPlacesOfOlderVersion(): Promise<number> {
  let settled = 0;
  await migrateOnce('mission-seat-holds', async () => {
    const missions = await MissionModel.collection
      .find<{ _id: Types.ObjectId; seating: OlderHold[] }>({ 'seating.0': { $exists: true } }, { projection: { seating: 1 } })
      .toArray();
    for (const mission of missions)
      for (const hold of mission.seating)
        if (hold.progress) {
          await settleOlderHold(mission._id, hold.progress);
          settled++;
        }
    await MissionModel.collection.updateMany({ seating: { $exists: true } }, { $unset: { seating: '' } });
    return null;
  });
  return settled;
}
