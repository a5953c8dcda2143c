import { NotificationModel } from './notification.model';

/** Messages the bot still owes players (queued, due or not): what the metrics show of notifications. */
export function notificationsWaiting(): Promise<number> {
  return NotificationModel.countDocuments({ status: 'queued' });
}
