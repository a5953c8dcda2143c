import { BroadcastModel } from './broadcast.model';

/** Broadcasts that finished since `since`, with their counts: what operators are told when one ends. */
export async function broadcastsFinishedSince(since: Date) {
  const rows = await BroadcastModel.find(
    { status: 'done', finishedAt: { $gte: since } },
    { text: 1, audience: 1, sent: 1, failed: 1, blocked: 1, unknown: 1, finishedAt: 1 },
  )
    .sort({ finishedAt: 1 })
    .limit(50)
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    title: row.text.replace(/<[^>]*>/g, '').slice(0, 60),
    audience: row.audience,
    sent: row.sent,
    failed: row.failed,
    blocked: row.blocked,
    unknown: row.unknown,
    finishedAt: row.finishedAt ?? new Date(0),
  }));
}
