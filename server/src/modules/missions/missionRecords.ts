import { AppError } from '../../lib/errors';
import { objectId, type Id } from '../../db/ids';
import { escapeRegex } from '../../db/prefixSearch';
import type { ConsoleRecord, NewRecord } from '../../db/schemaKit';
import { plural, registerCoinUse } from '../coins/giftCoinDeletion.service';
import { registerCategoryUse } from '../content/categoryDeletion.service';
import { MissionModel, UserMissionModel } from './mission.models';

/** How many missions pay in a coin. */
function countMissionsPayingIn(coinId: string): Promise<number> {
  return MissionModel.countDocuments({ coin: coinId });
}

/** How many missions a category holds. */
function countMissionsInCategory(categoryId: string): Promise<number> {
  return MissionModel.countDocuments({ category: categoryId });
}

/** Deletes a mission no player has started: progress and credited rewards point at it, so disable it instead. */
/** GET /api/admin/missions: a mission as the console lists and edits it; its YouTube code is never sent, only whether one is set. */
export type MissionRecord = ConsoleRecord<typeof MissionModel, 'reward', 'secretCode'> & { secretCodeSet: boolean };

export async function deleteMission(id: string): Promise<void> {
  const progress = await UserMissionModel.countDocuments({ mission: id });
  if (progress)
    throw new AppError('IN_USE', { uses: `${progress} player${progress === 1 ? "'s progress" : "s' progress"} (disable it instead)` });
  await MissionModel.deleteOne({ _id: id });
}

/** The ids of missions whose title contains the text, in any case (the missions are few: a scan). */
export function missionIdsMatching(text: string, limit: number) {
  return MissionModel.find({ title: new RegExp(escapeRegex(text), 'i') }, { _id: 1 })
    .limit(limit)
    .lean();
}

/** Missions done in [from, to), through the index on doneAt. */
export function countDoneBetween(from: Date, to: Date): Promise<number> {
  return UserMissionModel.countDocuments({ doneAt: { $gte: from, $lt: to }, status: 'done' });
}

/** Manual missions waiting for an operator's review. */
export function countReviewsWaiting(): Promise<number> {
  return UserMissionModel.countDocuments({ status: 'pending' });
}

registerCoinUse({ order: 2, count: countMissionsPayingIn, describe: (count) => plural(count, 'mission') });
registerCategoryUse(countMissionsInCategory);

/** Inserts missions and players' progress as given (the demo seed: a history written as it would have happened). */
/** Of these players, the ids of those who finished the mission. */
export async function finishedAmong(playerIds: Id[], missionId: Id): Promise<Set<string>> {
  const done = await UserMissionModel.find(
    { user: { $in: playerIds.map(objectId) }, mission: objectId(missionId), status: 'done' },
    { user: 1 },
  ).lean();
  return new Set(done.map((d) => String(d.user)));
}

export const insertMissions = (records: NewRecord<typeof MissionModel>[]) => MissionModel.insertMany(records);
export const insertProgress = (records: NewRecord<typeof UserMissionModel>[]) => UserMissionModel.insertMany(records);

/** A player's claims, newest first (up to `limit`): when they tapped Go and when they claimed, for the risk score's claim pace. */
export function claimTimesOf(playerId: Id, limit: number) {
  return UserMissionModel.find({ user: objectId(playerId) }, { startedAt: 1, claimedAt: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean();
}

/** Of these proof pictures, the ids a player's claim still carries. */
export async function proofImagesInUse(imageIds: string[]): Promise<Set<string>> {
  if (!imageIds.length) return new Set();
  const rows = await UserMissionModel.find({ 'proof.imageId': { $in: imageIds } }, { proof: 1 }).lean();
  return new Set(rows.map((row) => row.proof?.imageId ?? ''));
}
