import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

/** One timed mining session: yields `amount` evenly between startedAt and endsAt. */
const miningSessionSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      coin: ref('GiftCoin', { required: true }),
      amount: money({ required: true }),
      startedAt: { type: Date, required: true },
      endsAt: { type: Date, required: true },
      /** Set when its reward was moved to the wallet: by the admit check of its `mining-move` operation (mining.kinds.ts). */
      movedAt: { type: Date, default: null },
      /** Guards "one running session at a time": only one document per user may hold 'running'. */
      slot: { type: String, default: null },
      /** The Stars shop purchase behind it: a multiplier it used, or the extra session it is. */
      boostPurchase: ref('StarPurchase', { default: null }),
      /** The multiplier it was started with (150 = ×1.5), its amount already multiplied; null without one. */
      multiplierPercent: { type: Number, default: null },
    },
    schemaOptions,
  ),
);
miningSessionSchema.index({ user: 1, endsAt: -1 });
// the dashboard's running sessions: not moved and not ended
miningSessionSchema.index({ movedAt: 1, endsAt: 1 });
// the console's list: newest first, by player or coin, and each column it sorts by
miningSessionSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['user', 'coin']) miningSessionSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['startedAt', 'endsAt', 'movedAt']) miningSessionSchema.index({ [column]: 1, _id: 1 });
miningSessionSchema.index({ user: 1, movedAt: 1 });
miningSessionSchema.index({ slot: 1 }, { unique: true, partialFilterExpression: { slot: { $type: 'string' } } });
// one session per purchase: a repeated grant or a reused multiplier finds the one there
miningSessionSchema.index({ boostPurchase: 1 }, { unique: true, partialFilterExpression: { boostPurchase: { $type: 'objectId' } } });
export const MiningSessionModel = model('MiningSession', miningSessionSchema);
