import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

const NOTIFICATION_STATUSES = ['queued', 'sent', 'skipped', 'failed'] as const;

/**
 * One message the bot owes a player. Queued with its facts (rendered in the player's language when
 * sent); a sender claims it with a lease (a conditional update), so it goes out once however many
 * instances run and whatever restarts in between.
 */
const notificationSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      /** What happened, once: `mission-approved:<userMissionId>`, `stake-unlocked:<stakeId>`, … */
      key: { type: String, required: true },
      event: { type: String, required: true },
      /** The facts the text names (amounts as decimal strings, symbols, titles, reasons). */
      facts: { type: Schema.Types.Mixed, default: {} },
      status: { type: String, enum: NOTIFICATION_STATUSES, default: 'queued' },
      /** Not sent before this (a stake's unlock, the end of a mining session, a retry's pause). */
      dueAt: { type: Date, required: true },
      /** A sender holds the message until then; after it, another may take it over. */
      leaseUntil: { type: Date, default: null },
      leaseHolder: { type: String, default: '' },
      attempts: { type: Number, default: 0 },
      sentAt: { type: Date, default: null },
      /** When it was sent, skipped or given up; the record is kept 30 days after. */
      settledAt: { type: Date, default: null },
      /** Why it was skipped or failed: Telegram's words, never a token. */
      outcome: { type: String, default: '' },
    },
    schemaOptions,
  ),
);
notificationSchema.index({ key: 1 }, { unique: true });
notificationSchema.index({ status: 1, dueAt: 1, _id: 1 });
notificationSchema.index({ user: 1, createdAt: -1 });
/** How long a settled message is kept (its key still refuses a second send). */
export const SETTLED_KEPT_MS = 30 * 24 * 3600 * 1000;
notificationSchema.index({ settledAt: 1 }, { expireAfterSeconds: SETTLED_KEPT_MS / 1000 });

export const NotificationModel = model('Notification', notificationSchema);
