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
      username: { type: String, default: '' },
      /** Lower-cased username for lookups (web sign-in, search). */
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
userSchema.index({ telegramId: 1 }, { unique: true });
userSchema.index({ referralCode: 1 }, { unique: true });
userSchema.index({ usernameLower: 1 });
userSchema.index({ referrer: 1, createdAt: -1 });
userSchema.index({ referralState: 1, createdAt: 1 }, { partialFilterExpression: { referralState: 'pending' } });
userSchema.index({ createdAt: -1 });

export const UserModel = model('User', userSchema);
export type UserDocument = ReturnType<(typeof UserModel)['hydrate']>;
