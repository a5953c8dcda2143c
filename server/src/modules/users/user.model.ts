import { model, Schema } from 'mongoose';
import { LANGUAGES, THEMES } from '@gift/shared';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

const userSchema = applyConventions(
  new Schema(
    {
      telegramId: { type: Number, required: true },
      firstName: { type: String, default: '' },
      lastName: { type: String, default: '' },
      /** Display name: first and last name as Telegram gives them. */
      name: { type: String, default: '' },
      /** The name lower-cased, whole and word by word, kept by the model whenever name is written: the console's search by name. */
      nameWords: { type: [String], default: [], hidden: true },
      username: { type: String, default: '' },
      /** Lower-cased username for lookups (web sign-in, search), kept by the model. */
      usernameLower: { type: String, default: '' },
      languageCode: { type: String, default: 'en' },
      language: { type: String, enum: LANGUAGES, default: 'en' },
      theme: { type: String, enum: THEMES, default: 'dark' },
      /** Telegram's allows_write_to_pm: the bot may message this player. */
      messagePermission: { type: Boolean, default: false },
      isPremium: { type: Boolean, default: false },
      photoUrl: { type: String, default: '' },
      referralCode: { type: String, required: true },
      referrer: ref('User', { default: null }),
      /** 'pending' from registration with a referrer until the referral is counted and rewarded (or over the limit). */
      referralState: { type: String, enum: ['pending', 'rewarded', 'over-limit'] },
      /** The friends counted toward referrersCount (at most inviteLimit): a repeat never counts one twice. */
      countedFriends: { type: [Schema.Types.ObjectId], default: undefined, select: false },
      inviteLimit: { type: Number, default: 100, min: 0 },
      /** Counters kept by the services in the same step as the record they count. */
      referrersCount: { type: Number, default: 0 },
      missionsCount: { type: Number, default: 0 },
      doneMissionsCount: { type: Number, default: 0 },
      blocked: { type: Boolean, default: false },
      /** Raised to end every web sign-in token issued before it (a block, "sign out everywhere"). */
      tokenVersion: { type: Number, default: 0, hidden: true },
      isDemo: { type: Boolean, default: false },
      lastSeenAt: { type: Date, default: () => new Date() },
    },
    schemaOptions,
  ),
);
function wordsOf(name: string): string[] {
  const lower = name.trim().toLowerCase();
  return lower ? [...new Set([lower, ...lower.split(/\s+/)])] : [];
}
/** nameWords and usernameLower follow name and username in every write: a new player, a save, an update that sets them. */
userSchema.pre('validate', function () {
  this.nameWords = wordsOf(this.name ?? '');
  this.usernameLower = (this.username ?? '').toLowerCase();
});
userSchema.pre(['findOneAndUpdate', 'updateOne', 'updateMany'], function () {
  const update = this.getUpdate() as Record<string, Record<string, unknown> | undefined> | null;
  for (const operator of ['$set', '$setOnInsert'] as const) {
    const fields = update?.[operator];
    if (typeof fields?.name === 'string') fields.nameWords = wordsOf(fields.name);
    if (typeof fields?.username === 'string') fields.usernameLower = fields.username.toLowerCase();
  }
});

userSchema.index({ telegramId: 1 }, { unique: true });
userSchema.index({ referralCode: 1 }, { unique: true });
// web sign-in finds the newest real player with a username; the console searches by its prefix
userSchema.index({ usernameLower: 1, lastSeenAt: -1 });
userSchema.index({ nameWords: 1 });
userSchema.index({ referrer: 1, createdAt: -1, _id: -1 });
userSchema.index({ referralState: 1, createdAt: 1 }, { partialFilterExpression: { referralState: 'pending' } });
// the console's list: its default order, each filter in that order, and each column it sorts by (with the id as tie-breaker)
userSchema.index({ createdAt: -1, _id: -1 });
userSchema.index({ blocked: 1, createdAt: -1, _id: -1 });
// a broadcast's audience: the players the bot may message, paged in id order
userSchema.index({ messagePermission: 1, _id: 1 });
userSchema.index({ isDemo: 1, createdAt: -1, _id: -1 });
for (const column of ['telegramId', 'referrersCount', 'missionsCount', 'doneMissionsCount', 'name', 'username', 'lastSeenAt'])
  userSchema.index({ [column]: 1, _id: 1 });

export const UserModel = model('User', userSchema);
export type UserDocument = ReturnType<(typeof UserModel)['hydrate']>;
