import { model, Schema } from 'mongoose';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';

/** A question and its answer on the Help page, in English and (optionally) Persian. */
const faqSchema = applyConventions(
  new Schema(
    {
      question: { type: String, required: true },
      answer: { type: String, required: true },
      fa: { question: { type: String, default: '' }, answer: { type: String, default: '' } },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
    },
    schemaOptions,
  ),
);
faqSchema.index({ enabled: 1, order: 1, _id: 1 });
export const FaqModel = model('Faq', faqSchema);

/**
 * A banned or frozen player's appeal. `key` is the player and the moment their standing last changed: one appeal per ban or
 * freeze, however often the player sends it (a conditional upsert on the key).
 */
const appealSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      key: { type: String, required: true },
      /** The standing appealed against, and its reason, as they were when the player wrote. */
      standing: { type: String, enum: ['banned', 'frozen'], required: true },
      standingReason: { type: String, default: '' },
      text: { type: String, required: true },
      status: { type: String, enum: ['open', 'answered'], default: 'open' },
      answer: { type: String, default: '' },
      answeredBy: ref('Account', { default: null }),
      answeredAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
appealSchema.index({ key: 1 }, { unique: true });
// the console's queue, oldest first, and a player's own appeals
appealSchema.index({ status: 1, createdAt: 1, _id: 1 });
appealSchema.index({ user: 1, createdAt: -1, _id: -1 });
appealSchema.index({ createdAt: -1, _id: -1 });
export const AppealModel = model('Appeal', appealSchema);
