import { objectId, type Id } from '../../db/ids';
import type { TimeSlice } from '../../db/timePage';
import { BroadcastModel, BroadcastRecipientModel } from './broadcast.model';

/** How much of a broadcast's text a timeline line shows. */
const EXCERPT = 80;

/** A broadcast's Telegram HTML as a short line of plain text. */
const excerpt = (html: string) => {
  const plain = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(lt|gt|amp|quot);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"' })[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > EXCERPT ? `${plain.slice(0, EXCERPT - 1)}…` : plain;
};

/** One page of the broadcasts a player was sent, newest first, in the language they were sent in: served by (user, sentAt, _id). */
export async function broadcastMomentsOf(playerId: Id, slice: TimeSlice) {
  const rows = await BroadcastRecipientModel.find({ user: objectId(playerId), ...slice.filter }, { broadcast: 1, language: 1, sentAt: 1 })
    .sort(slice.sort)
    .limit(slice.limit)
    .lean();
  const broadcasts = rows.length
    ? await BroadcastModel.find({ _id: { $in: [...new Set(rows.map((row) => String(row.broadcast)))] } }, { text: 1, fa: 1 }).lean()
    : [];
  const texts = new Map(broadcasts.map((broadcast) => [String(broadcast._id), broadcast]));
  return rows.map((row) => {
    const broadcast = texts.get(String(row.broadcast));
    const text = (row.language === 'fa' && broadcast?.fa?.text) || broadcast?.text || '';
    return { id: String(row._id), at: row.sentAt!, broadcast: String(row.broadcast), text: excerpt(text) };
  });
}
