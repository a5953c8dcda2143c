import { createHash } from 'node:crypto';
import { model, Schema, Types } from 'mongoose';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';
import type { Id } from '../../db/ids';

/** How long a launch is kept for the timeline: the collection stays bounded however often players open the app. */
const LAUNCH_DAYS = 90;

/**
 * One launch of the mini app by a player: the moment Telegram signed the launch (`auth_date`). Its id is derived from the
 * player and that moment, so the simultaneous first requests of one launch record it once.
 */
const launchSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    user: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
launchSchema.index({ user: 1, at: -1, _id: -1 });
launchSchema.index({ at: 1 }, { expireAfterSeconds: LAUNCH_DAYS * 86_400 });
export const LaunchModel = model('Launch', launchSchema);

/** A launch's id: its time's seconds first (as an ObjectId's), then a hash of the player and the time. */
export function launchId(user: Id, at: Date): Types.ObjectId {
  const seconds = Math.floor(at.getTime() / 1000);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(seconds >>> 0);
  const tail = createHash('sha256')
    .update(`${String(user)}:${seconds}`)
    .digest()
    .subarray(0, 8);
  return new Types.ObjectId(Buffer.concat([head, tail]));
}

/** An operator's internal note on a player: shown on the player's timeline in the console, never to the player. */
const playerNoteSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      text: { type: String, required: true },
      account: ref('Account', { required: true }),
      /** The author's username when they wrote it, kept if the account is renamed or deleted. */
      author: { type: String, required: true },
    },
    schemaOptions,
  ),
);
playerNoteSchema.index({ user: 1, createdAt: -1, _id: -1 });
export const PlayerNoteModel = model('PlayerNote', playerNoteSchema);
