import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions } from '../../db/schemaKit';

/** A named lease: which instance long-polls Telegram, which one sends notifications. */
const botLeaseSchema = applyConventions(
  new Schema(
    {
      name: { type: String, required: true },
      holder: { type: String, default: '' },
      expiresAt: { type: Date, default: () => new Date(0) },
    },
    schemaOptions,
  ),
);
botLeaseSchema.index({ name: 1 }, { unique: true });
const BotLeaseModel = model('BotLease', botLeaseSchema);

/**
 * Takes or renews the lease `name` for `holder` until now + ms. One conditional update: it succeeds
 * only for the current holder or once the last holder let it expire, so two instances never hold it.
 */
export async function holdLease(name: string, holder: string, now: Date, ms: number): Promise<boolean> {
  await BotLeaseModel.updateOne({ name }, { $setOnInsert: { name, holder: '', expiresAt: new Date(0) } }, { upsert: true });
  const taken = await BotLeaseModel.updateOne(
    { name, $or: [{ holder }, { expiresAt: { $lte: now } }] },
    { $set: { holder, expiresAt: new Date(now.getTime() + ms) } },
  );
  return taken.matchedCount === 1;
}

/** Lets the lease go at once (a clean shutdown), so another instance need not wait for it to expire. */
export async function releaseLease(name: string, holder: string): Promise<void> {
  await BotLeaseModel.updateOne({ name, holder }, { $set: { expiresAt: new Date(0) } });
}
