import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

/** A one-time code sent by the bot for signing in outside Telegram. */
const loginCodeSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      codeHash: { type: String, required: true, hidden: true },
      attempts: { type: Number, default: 0 },
      expiresAt: { type: Date, required: true },
      usedAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
loginCodeSchema.index({ user: 1, createdAt: -1 });
loginCodeSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 3600 });

export const LoginCodeModel = model('LoginCode', loginCodeSchema);
