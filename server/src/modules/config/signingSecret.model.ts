import { model, Schema } from 'mongoose';

/** The token-signing secret a server on a real database generated for itself when JWT_SECRET was not set. */
const signingSecretSchema = new Schema(
  {
    name: { type: String, required: true },
    secret: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
signingSecretSchema.index({ name: 1 }, { unique: true });

export const SigningSecretModel = model('SigningSecret', signingSecretSchema);
