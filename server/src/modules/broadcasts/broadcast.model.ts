import { createHash } from 'node:crypto';
import { model, Schema, Types } from 'mongoose';
import { BROADCAST_STATUSES, RECIPIENT_STATUSES } from '@gift/shared';
import { applyConventions, ref, schemaOptions, type ConsoleRecord } from '../../db/schemaKit';
import type { Id } from '../../db/ids';

const translated = new Schema({ text: { type: String, default: '' } }, { _id: false });

/**
 * A message an operator sends through the bot to a segment of players. A draft until started; then its
 * recipients are materialised (one record each) and sent at the configured pace, by any instance.
 */
const broadcastSchema = applyConventions(
  new Schema(
    {
      /** Telegram HTML: English, and the Persian players read when it is given. */
      text: { type: String, required: true },
      fa: { type: translated, default: () => ({}) },
      imageUrl: { type: String, default: '' },
      /** A button that opens the mini app at a page. */
      button: {
        type: new Schema({ text: String, fa: { type: translated, default: () => ({}) }, path: String }, { _id: false }),
        default: null,
      },
      /** Who it reaches (see broadcastSegment); stored as given. */
      segment: { type: Schema.Types.Mixed, default: () => ({}) },
      status: { type: String, enum: BROADCAST_STATUSES, default: 'draft' },
      /** Sent from this time once started; null sends at once. */
      scheduledAt: { type: Date, default: null },
      /** When the recipients were all recorded: the audience is fixed from then on. */
      materialisedAt: { type: Date, default: null },
      audience: { type: Number, default: 0 },
      sent: { type: Number, default: 0 },
      failed: { type: Number, default: 0 },
      /** Players who blocked the bot: their message permission is cleared. */
      blocked: { type: Number, default: 0 },
      /** Sends whose outcome is unknown: the sender died with the request in flight (perhaps delivered). */
      unknown: { type: Number, default: 0 },
      startedAt: { type: Date, default: null },
      finishedAt: { type: Date, default: null },
      createdBy: ref('Account', { default: null }),
    },
    schemaOptions,
  ),
);
broadcastSchema.index({ status: 1, scheduledAt: 1 });
// the console's list, newest first, and filtered by status
broadcastSchema.index({ createdAt: -1, _id: -1 });
broadcastSchema.index({ status: 1, createdAt: -1, _id: -1 });
export const BroadcastModel = model('Broadcast', broadcastSchema);
export type BroadcastDocument = InstanceType<typeof BroadcastModel>;

/** GET /api/admin/broadcasts: a broadcast with its progress. */
export type BroadcastRecord = ConsoleRecord<typeof BroadcastModel> & {
  remaining: number;
  /** The send rate (messages a second) and when the rest is expected to be out, while sending. */
  rate: number;
  expectedFinish: string | null;
};

/**
 * One player a started broadcast goes to. Its id is derived from the broadcast and the player, so recording
 * the audience again (after a crash) never makes a second one. A sender claims it with a short lease it renews
 * while it lives, marks it `sending` just before the call to Telegram, and settles it after: one found `sending`
 * with its lease run out was perhaps delivered, and is settled as `unknown` rather than sent twice (an operator may
 * choose to resend to those).
 */
const recipientSchema = applyConventions(
  new Schema(
    {
      broadcast: ref('Broadcast', { required: true }),
      user: ref('User', { required: true }),
      telegramId: { type: Number, required: true },
      language: { type: String, default: 'en' },
      status: { type: String, enum: RECIPIENT_STATUSES, default: 'queued' },
      /** Not tried before this (a retry's pause). */
      dueAt: { type: Date, default: () => new Date(0) },
      leaseUntil: { type: Date, default: null },
      leaseHolder: { type: String, default: '' },
      attempts: { type: Number, default: 0 },
      /** Why it failed: Telegram's words; or that the sender stopped mid-send (unknown), or that it was resent. */
      outcome: { type: String, default: '' },
      sentAt: { type: Date, default: null },
    },
    { ...schemaOptions, timestamps: false },
  ),
);
// what is left to claim, and the failures listed, of one broadcast
recipientSchema.index({ broadcast: 1, status: 1, _id: 1 });
recipientSchema.index({ status: 1, leaseUntil: 1 });
// a player's timeline: the broadcasts they were sent, newest first (broadcastHistory.service.ts)
recipientSchema.index({ user: 1, sentAt: -1, _id: -1 });
export const BroadcastRecipientModel = model('BroadcastRecipient', recipientSchema);

/** The one recipient record of a player in a broadcast: the same id however often the audience is recorded. */
export function recipientId(broadcast: Id, user: Id): Types.ObjectId {
  return new Types.ObjectId(
    createHash('sha256')
      .update(`${String(broadcast)}:${String(user)}`)
      .digest()
      .subarray(0, 12),
  );
}

/**
 * The next free moment to send a broadcast message, shared by every instance: a sender reserves a run of
 * slots with one conditional update, so instances together keep the configured pace.
 */
const paceSchema = new Schema({ nextAt: { type: Date, required: true } }, { versionKey: false });
export const BroadcastPaceModel = model('BroadcastPace', paceSchema);
export const PACE_ID = new Types.ObjectId('000000000000000000000b0c');
