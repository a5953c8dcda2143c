import { BroadcastModel } from './broadcast.model';

/** Broadcasts being sent now, and those scheduled to start: what the metrics show of broadcasting. */
export async function broadcastsUnderway(): Promise<{ sending: number; scheduled: number }> {
  const [sending, scheduled] = await Promise.all([
    BroadcastModel.countDocuments({ status: 'sending' }),
    BroadcastModel.countDocuments({ status: 'scheduled' }),
  ]);
  return { sending, scheduled };
}
