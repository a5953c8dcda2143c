import { model, Schema } from 'mongoose';

/** Hits of one subject (a player, an address, a username) in one fixed window of one limit; gone when the window ends. */
const rateLimitCounterSchema = new Schema(
  {
    /** `<limit>:<subject>:<window start in ms>` */
    key: { type: String, required: true },
    count: { type: Number, default: 0 },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
rateLimitCounterSchema.index({ key: 1 }, { unique: true });
rateLimitCounterSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const RateLimitCounterModel = model('RateLimitCounter', rateLimitCounterSchema);
