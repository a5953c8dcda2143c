import { model, Schema } from 'mongoose';
import { idOfKey } from './ids';

/** How far a data migration has come: the last record it finished, and when it was over. */
const migrationSchema = new Schema(
  {
    name: { type: String, required: true },
    after: { type: String, default: '' },
    finishedAt: { type: Date, default: null },
  },
  { versionKey: false, timestamps: true },
);
const MigrationModel = model('Migration', migrationSchema);

/**
 * Runs a data migration over records in id order, one batch at a time, keeping how far it came so a restart carries on
 * where a crash stopped it. `batch(after)` migrates the next records after that id (every step idempotent, as a batch may be
 * redone once) and returns the last id it did, or null when none were left. Once finished, a call costs one read.
 */
export async function migrateOnce(name: string, batch: (after: string) => Promise<string | null>): Promise<void> {
  // one record per migration, its id derived from the name (the `_id` index is the one every engine enforces)
  const _id = idOfKey('migration', name);
  const progress = await MigrationModel.findById(_id).lean();
  if (progress?.finishedAt) return;
  let after = progress?.after ?? '';
  for (;;) {
    const last = await batch(after);
    if (last === null) break;
    after = last;
    await MigrationModel.updateOne({ _id }, { $set: { name, after } }, { upsert: true });
  }
  await MigrationModel.updateOne({ _id }, { $set: { name, finishedAt: new Date() } }, { upsert: true });
}
