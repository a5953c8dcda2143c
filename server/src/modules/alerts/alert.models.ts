import { model, Schema } from 'mongoose';
import { LANGUAGES, OPERATOR_ALERT_KINDS } from '@gift/shared';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';

/**
 * An operator's Telegram chat for alerts, what they want to be told, and the one-time code that links it: only the code's
 * SHA-256 is kept, it is cleared by the conditional update that uses it, and it expires.
 */
const alertLinkSchema = applyConventions(
  new Schema(
    {
      account: ref('Account', { required: true }),
      /** The private chat the bot writes to; null until linked (and after unlinking). */
      chatId: { type: Number, default: null },
      linkedAt: { type: Date, default: null },
      language: { type: String, enum: LANGUAGES, default: 'en' },
      kinds: { type: [{ type: String, enum: OPERATOR_ALERT_KINDS }], default: () => [...OPERATOR_ALERT_KINDS] },
      codeHash: { type: String, default: null, hidden: true },
      codeExpiresAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
// real MongoDB enforces it; every write here is by account, one upsert, which the embedded engine keeps single too
alertLinkSchema.index({ account: 1 }, { unique: true });
alertLinkSchema.index({ codeHash: 1 }, { sparse: true });
alertLinkSchema.index({ chatId: 1 });
export const AlertLinkModel = model('OperatorAlertLink', alertLinkSchema);

/**
 * One message the bot owes one operator about one event: keyed by (account, kind, event), written by one upsert, so two
 * sweeps (two instances, or a retry after a crash) queue it once; sent under a lease taken by one conditional update.
 */
const operatorAlertSchema = applyConventions(
  new Schema(
    {
      key: { type: String, required: true },
      account: ref('Account', { required: true }),
      kind: { type: String, enum: OPERATOR_ALERT_KINDS, required: true },
      eventKey: { type: String, required: true },
      chatId: { type: Number, required: true },
      language: { type: String, enum: LANGUAGES, default: 'en' },
      /** What the text names; for claims, `until`: the end of the window it summarised. */
      facts: { type: Schema.Types.Mixed, default: {} },
      status: { type: String, enum: ['queued', 'sent', 'failed'], default: 'queued' },
      dueAt: { type: Date, required: true },
      leaseUntil: { type: Date, default: null },
      leaseHolder: { type: String, default: '' },
      attempts: { type: Number, default: 0 },
      sentAt: { type: Date, default: null },
      outcome: { type: String, default: '' },
    },
    schemaOptions,
  ),
);
operatorAlertSchema.index({ key: 1 }, { unique: true });
operatorAlertSchema.index({ status: 1, dueAt: 1, _id: 1 });
operatorAlertSchema.index({ account: 1, kind: 1, createdAt: -1 });
export const OperatorAlertModel = model('OperatorAlert', operatorAlertSchema);

/**
 * A condition that lasts (payouts stopped, the hot wallet low): opened once when it begins, numbered, closed when it ends,
 * so each time it begins operators are told once, by its number.
 */
const alertEpisodeSchema = applyConventions(
  new Schema(
    {
      key: { type: String, required: true },
      kind: { type: String, enum: OPERATOR_ALERT_KINDS, required: true },
      open: { type: Boolean, default: false },
      number: { type: Number, default: 0 },
      facts: { type: Schema.Types.Mixed, default: {} },
    },
    schemaOptions,
  ),
);
alertEpisodeSchema.index({ key: 1 }, { unique: true });
alertEpisodeSchema.index({ kind: 1, open: 1 });
export const AlertEpisodeModel = model('OperatorAlertEpisode', alertEpisodeSchema);
