import { model, Schema, type Types } from 'mongoose';
import { isDuplicateKey } from '../../db/mongoErrors';
import { idOfKey, objectId, type Id } from '../../db/ids';
import { MissionModel, UserMissionModel } from './mission.models';

/**
 * A player's first look at a mission (its page opened): one record per player and mission (its id made of both), written once.
 * Later opens find it there and write nothing. The first step of a mission's funnel.
 */
const missionOpenSchema = new Schema(
  {
    mission: { type: Schema.Types.ObjectId, required: true },
    user: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
// the daily roll-up counts a day's first opens
missionOpenSchema.index({ at: 1 });
const MissionOpenModel = model('MissionOpen', missionOpenSchema);

/**
 * Records that the player opened the mission's page, the first time only: a mission that is not found records nothing. Two
 * commands at most, once per player and mission (the app asks only while the mission is not started).
 */
export async function recordMissionOpen(userId: Id, missionId: string, now: Date): Promise<void> {
  if (!(await MissionModel.exists({ _id: objectId(missionId) }))) return;
  const [mission, user] = [objectId(missionId), objectId(userId)];
  try {
    await MissionOpenModel.updateOne(
      { _id: idOfKey('open', String(mission), String(user)) },
      { $setOnInsert: { mission, user, at: now } },
      { upsert: true },
    );
  } catch (error) {
    // a simultaneous first open won: it is recorded
    if (!isDuplicateKey(error)) throw error;
  }
}

/** One mission's steps in a day: first opens, Go (progress started), claims, approvals, and what the approvals paid. */
interface MissionDay {
  mission: Types.ObjectId;
  opened: number;
  go: number;
  claimed: number;
  approved: number;
  /** Rewards of the approvals, in micro-units per coin. */
  cost: Array<{ coin: Types.ObjectId; amount: number }>;
}

type Counted = { _id: Types.ObjectId; count: number };

/**
 * Every mission's funnel in [from, to), from the records of those dates alone, each read through the index on its date:
 * opened (first opens), Go (a progress's last start: a Go, a Go again after a rejection, or a claim that started it), claimed
 * (a progress's last claim), approved (done, with its reward). Four aggregations, each grouped by mission.
 */
export async function missionFunnelBetween(from: Date, to: Date): Promise<MissionDay[]> {
  const byMission = { $group: { _id: '$mission', count: { $sum: 1 } } };
  const [opened, go, claimed, approved] = await Promise.all([
    MissionOpenModel.aggregate<Counted>([{ $match: { at: { $gte: from, $lt: to } } }, byMission]),
    UserMissionModel.aggregate<Counted>([{ $match: { startedAt: { $gte: from, $lt: to } } }, byMission]),
    UserMissionModel.aggregate<Counted>([{ $match: { claimedAt: { $gte: from, $lt: to } } }, byMission]),
    UserMissionModel.aggregate<{ _id: { mission: Types.ObjectId; coin: Types.ObjectId }; count: number; total: number }>([
      { $match: { doneAt: { $gte: from, $lt: to }, status: 'done' } },
      { $group: { _id: { mission: '$mission', coin: '$coin' }, count: { $sum: 1 }, total: { $sum: '$reward' } } },
    ]),
  ]);
  const days = new Map<string, MissionDay>();
  const dayOf = (mission: Types.ObjectId) => {
    const key = String(mission);
    if (!days.has(key)) days.set(key, { mission, opened: 0, go: 0, claimed: 0, approved: 0, cost: [] });
    return days.get(key)!;
  };
  for (const row of opened) dayOf(row._id).opened = row.count;
  for (const row of go) dayOf(row._id).go = row.count;
  for (const row of claimed) dayOf(row._id).claimed = row.count;
  for (const row of approved) {
    const day = dayOf(row._id.mission);
    day.approved += row.count;
    day.cost.push({ coin: row._id.coin, amount: row.total });
  }
  return [...days.values()];
}

/** The titles of these missions (English and Persian), by id. */
export async function missionTitles(ids: Id[]): Promise<Map<string, { title: string; fa: string }>> {
  const rows = await MissionModel.find({ _id: { $in: ids.map(objectId) } }, { title: 1, fa: 1 }).lean();
  return new Map(rows.map((row) => [String(row._id), { title: row.title, fa: row.fa?.title ?? '' }]));
}
