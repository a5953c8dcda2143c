import { model, Schema, type Types } from 'mongoose';
import { isDuplicateKey } from '../../db/mongoErrors';
import { idOfKey, objectId, type Id } from '../../db/ids';
import { UserModel } from './user.model';

const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A day (UTC) a player used the app after the day they joined: one record per player and day (its id made of both), with the day
 * they joined, so the daily roll-up counts a join cohort's players active on a day through one index.
 */
const activeDaySchema = new Schema(
  {
    user: { type: Schema.Types.ObjectId, required: true },
    day: { type: String, required: true },
    /** The day the player joined (YYYY-MM-DD). */
    joined: { type: String, required: true },
  },
  { versionKey: false },
);
activeDaySchema.index({ day: 1, joined: 1 });
const ActiveDayModel = model('ActiveDay', activeDaySchema);

/**
 * Records that the player is active today, when their last launch was on an earlier day: one write on their first launch of a
 * day, none on the others (the launch that registers a player is their join day, not counted). `lastSeenAt` is what the
 * player's record said before this launch.
 */
export async function recordActiveDay(player: { _id: Types.ObjectId; createdAt?: Date; lastSeenAt?: Date }, now: Date): Promise<void> {
  const today = dayKey(now);
  if (!player.lastSeenAt || dayKey(player.lastSeenAt) >= today) return;
  const joined = dayKey(player.createdAt ?? player.lastSeenAt);
  if (joined >= today) return;
  try {
    await ActiveDayModel.updateOne(
      { _id: idOfKey('active', String(player._id), today) },
      { $setOnInsert: { user: player._id, day: today, joined } },
      { upsert: true },
    );
  } catch (error) {
    // a simultaneous first launch of the day recorded it
    if (!isDuplicateKey(error)) throw error;
  }
}

/** Players who joined on `joined` and were active on `day` (both YYYY-MM-DD), through the index on both. */
export function countActiveOn(day: string, joined: string): Promise<number> {
  return ActiveDayModel.countDocuments({ day, joined });
}

type PerReferrer = { _id: Types.ObjectId; count: number };

/**
 * Per referrer, the friends who joined in [from, to) and those whose referral qualified in [from, to) (met the App Config's
 * rule: rewarded, or waiting on risk), each through the index on its date.
 */
export async function referralsBetween(from: Date, to: Date) {
  const byReferrer = { $group: { _id: '$referrer', count: { $sum: 1 } } };
  const [joined, qualified] = await Promise.all([
    UserModel.aggregate<PerReferrer>([{ $match: { createdAt: { $gte: from, $lt: to }, referrer: { $ne: null } } }, byReferrer]),
    UserModel.aggregate<PerReferrer>([{ $match: { referralQualifiedAt: { $gte: from, $lt: to } } }, byReferrer]),
  ]);
  return { joined, qualified };
}

/** The names of these players (name, @username, Telegram id), by id. */
export async function playerLabels(ids: Id[]): Promise<Map<string, { name: string; username: string; telegramId: number }>> {
  const rows = await UserModel.find({ _id: { $in: ids.map(objectId) } }, { name: 1, username: 1, telegramId: 1 }).lean();
  return new Map(rows.map((row) => [String(row._id), { name: row.name ?? '', username: row.username ?? '', telegramId: row.telegramId }]));
}
