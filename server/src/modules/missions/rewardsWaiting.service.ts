import { MissionModel } from './mission.models';

/**
 * The missions whose reward change waits for a second operator (an edit, a creation held disabled, the campaign switch), the
 * newest first, at most `limit`: the change, who asked and when, and the mission's title.
 */
export async function missionRewardsWaiting(limit: number) {
  const rows = await MissionModel.find({ waiting: { $ne: null } }, { title: 1, waiting: 1 })
    .sort({ 'waiting.requestedAt': -1 })
    .limit(limit)
    .lean();
  return rows.flatMap((row) =>
    row.waiting
      ? [
          {
            id: row.waiting.id,
            record: String(row._id),
            name: row.title,
            requestedBy: String(row.waiting.requestedBy),
            requestedAt: row.waiting.requestedAt,
          },
        ]
      : [],
  );
}
