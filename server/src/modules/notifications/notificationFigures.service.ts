import { REMINDER_KINDS } from '@gift/shared';
import { NotificationModel } from './notification.model';

/** Messages the bot still owes players (queued, due or not): what the metrics show of notifications. */
export function notificationsWaiting(): Promise<number> {
  return NotificationModel.countDocuments({ status: 'queued' });
}

/** Reminders settled since `since`, by kind and outcome (sent, skipped, failed): through the index on settledAt. */
export async function remindersSettledSince(since: Date): Promise<Array<{ kind: string; status: string; count: number }>> {
  const rows = await NotificationModel.aggregate<{ _id: { kind: string; status: string }; count: number }>([
    { $match: { settledAt: { $gte: since }, event: { $in: [...REMINDER_KINDS] } } },
    { $group: { _id: { kind: '$event', status: '$status' }, count: { $sum: 1 } } },
  ]);
  return rows.map(({ _id, count }) => ({ ..._id, count }));
}
