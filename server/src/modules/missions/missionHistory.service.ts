import { fromMicros } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import type { TimeSlice } from '../../db/timePage';
import { MissionModel, UserMissionModel } from './mission.models';

/**
 * The moments of a player's mission progress a timeline shows (issue 34, item 6): Go (startedAt), the claim (claimedAt), the
 * approval (doneAt) and a rejection (the progress's last change while rejected). A progress keeps its last round only: a
 * retry after a rejection starts it again, so an earlier round's moments are not kept.
 */
export const MISSION_MOMENTS = { started: 'startedAt', claimed: 'claimedAt', done: 'doneAt', rejected: 'updatedAt' } as const;
export type MissionMoment = keyof typeof MISSION_MOMENTS;

/** One page of one moment of a player's progress, newest first: served by (user, <time>, _id). */
export async function missionMomentsOf(playerId: Id, moment: MissionMoment, slice: TimeSlice) {
  const field = MISSION_MOMENTS[moment];
  const rows = await UserMissionModel.find(
    { user: objectId(playerId), ...(moment === 'rejected' ? { status: 'rejected' } : {}), ...slice.filter },
    { mission: 1, status: 1, reward: 1, coin: 1, rejectReason: 1, startedAt: 1, claimedAt: 1, doneAt: 1, updatedAt: 1 },
  )
    .sort(slice.sort)
    .limit(slice.limit)
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    at: row[field] as Date,
    mission: String(row.mission),
    status: row.status,
    reward: fromMicros(row.reward as number),
    coin: String(row.coin),
    reason: row.rejectReason ?? '',
  }));
}

/** The titles of these missions, by id: one read for a whole page of a timeline. */
export async function missionTitles(ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const missions = await MissionModel.find({ _id: { $in: ids.map(objectId) } }, { title: 1 }).lean();
  return new Map(missions.map((mission) => [String(mission._id), mission.title]));
}
