import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

/**
 * One request for a sign-in code, whatever its outcome: a code the bot sent to the player, or (an unknown
 * username, a player the limits hold back) one sent to nobody, so a check answers the same either way.
 */
const loginCodeSchema = applyConventions(
  new Schema(
    {
      /** SHA-256 of the request id the asker got back: only they can try codes against this request. */
      requestHash: { type: String, required: true, hidden: true },
      usernameLower: { type: String, required: true },
      /** The player the code was sent to; null when nothing was sent. */
      user: ref('User', { default: null }),
      /** The asker's address as the limits count it (IPv6 by /64). */
      address: { type: String, default: '' },
      codeHash: { type: String, required: true, hidden: true },
      attempts: { type: Number, default: 0 },
      expiresAt: { type: Date, required: true },
      usedAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
loginCodeSchema.index({ requestHash: 1 }, { unique: true });
loginCodeSchema.index({ user: 1, createdAt: -1 });
loginCodeSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 3600 });

export const LoginCodeModel = model('LoginCode', loginCodeSchema);
