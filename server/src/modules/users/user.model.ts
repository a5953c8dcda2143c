import { model, Schema } from 'mongoose';
import { LANGUAGES, PLAYER_STATUSES, RISK_LEVELS, RISK_SIGNALS, THEMES } from '@gift/shared';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

/** One signal of a player's risk score: how strong (0 to 1), the points it added, and its evidence in words and figures. */
const riskSignalSchema = new Schema(
  {
    signal: { type: String, enum: RISK_SIGNALS, required: true },
    strength: { type: Number, required: true },
    points: { type: Number, required: true },
    /** The figures behind it (friends in a minute, players on the network…), which the console puts into words. */
    evidence: { type: Schema.Types.Mixed, default: {} },
    /** A filter of the console's player list that shows the cluster behind the signal (the friends, the network, the wallet's players). */
    cluster: { type: Schema.Types.Mixed, default: null },
  },
  { _id: false },
);

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
      /**
       * None from registration with a referrer until the referral is decided (by its reward's operation: referrals.kinds.ts;
       * 'pending', as an older version wrote it, is finished once at start-up); then 'joined' while the friend has yet to qualify
       * (App Config's referralQualification), 'waiting' while its reward waits on the referrer's or the friend's risk (review or
       * high, not cleared), 'rewarded' once the referrer is credited, or 'over-limit'.
       */
      referralState: { type: String, enum: ['pending', 'joined', 'waiting', 'rewarded', 'over-limit'] },
      /** When the referral met the App Config's rule (rewarded, or waiting on risk): the referral figures count it on that day. */
      referralQualifiedAt: { type: Date },
      /** The friends counted toward referrersCount (at most inviteLimit): a repeat never counts one twice. */
      countedFriends: { type: [Schema.Types.ObjectId], default: undefined, select: false },
      inviteLimit: { type: Number, default: 100, min: 0 },
      /** Counters kept by the services in the same step as the record they count. */
      referrersCount: { type: Number, default: 0 },
      missionsCount: { type: Number, default: 0 },
      doneMissionsCount: { type: Number, default: 0 },
      /** The progress records last counted in the two above (`<counter>:<progress id>`): a repeat never counts one twice. */
      countedProgress: { type: [String], default: undefined, select: false },
      /** Consecutive days (App Config's timezone) with a daily mission done: how many, the first and the last. */
      streak: {
        days: { type: Number, default: 0 },
        startDay: { type: String, default: '' },
        lastDay: { type: String, default: '' },
      },
      /**
       * The bot's reminders: the kinds the player switched off, and today's (App Config timezone) capped reminders, by message key,
       * so a message retried after a crash takes no second place under the daily cap.
       */
      reminders: {
        off: { type: [String], default: [] },
        day: { type: String, default: '' },
        count: { type: Number, default: 0 },
        keys: { type: [String], default: [] },
      },
      /** Streak freezes bought in the Stars shop and not used yet: each covers one missed day (see advanceStreak). */
      streakFreezes: { type: Number, default: 0 },
      /** The shop purchases whose freeze was given, and those a refund settled (`<key>:revoked` or `<key>:used`): each once. */
      freezeKeys: { type: [String], default: undefined, select: false },
      freezeRefunds: { type: [String], default: undefined, select: false },
      /** active, frozen (looks, cannot move money) or banned (signed out of everything), with the reason the player reads. */
      status: { type: String, enum: PLAYER_STATUSES, default: 'active' },
      statusReason: { type: String, default: '' },
      fa: { statusReason: { type: String, default: '' } },
      statusChangedAt: { type: Date, default: null },
      /** Before statuses: a blocked player, read as banned (the sweep moves them to status 'banned'). */
      blocked: { type: Boolean, select: false, hidden: true },
      /** The network (a hash of its IPv4 /24 or IPv6 /64) of the player's first launch: the risk score's network burst. */
      joinNetwork: { type: String, default: '' },
      /** The player's wallets, current and past, in raw form: the console finds a player by any of them. */
      walletAddresses: { type: [String], default: [] },
      /** What the console's search also matches by prefix, lower-cased: the Telegram id's digits, the referral code, the wallets. */
      lookupWords: { type: [String], default: [], hidden: true },
      /** The risk score, its level and each signal with its evidence, as last assessed. */
      risk: {
        score: { type: Number, default: 0 },
        level: { type: String, enum: RISK_LEVELS, default: 'low' },
        signals: { type: [riskSignalSchema], default: [] },
        assessedAt: { type: Date, default: null },
      },
      /**
       * An operator looked at the player's risk and let their referral rewards go: by whom, when, and at what score. It holds
       * while the score stays at or below that one; a higher score (new evidence) holds the rewards again.
       */
      riskCleared: {
        score: { type: Number, default: null },
        by: ref('Account', { default: null }),
        at: { type: Date, default: null },
      },
      /** Set when something the score reads changed (a friend joined, a wallet moved, a claim, a withdrawal): the sweep assesses the player again. */
      riskDueAt: { type: Date, default: null },
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
/** The lookup words of a player: Telegram id, referral code and wallets, lower-cased for the search by prefix. */
function lookupWordsOf(player: { telegramId?: number | null; referralCode?: string | null; walletAddresses?: string[] | null }) {
  const words = [player.telegramId ? String(player.telegramId) : '', player.referralCode ?? '', ...(player.walletAddresses ?? [])];
  return [...new Set(words.filter(Boolean).map((word) => word.toLowerCase()))];
}
userSchema.pre('validate', function () {
  this.nameWords = wordsOf(this.name ?? '');
  this.usernameLower = (this.username ?? '').toLowerCase();
  this.lookupWords = lookupWordsOf(this);
});
userSchema.pre(['findOneAndUpdate', 'updateOne', 'updateMany'], function () {
  const update = this.getUpdate() as Record<string, Record<string, unknown> | undefined> | null;
  for (const operator of ['$set', '$setOnInsert'] as const) {
    const fields = update?.[operator];
    if (typeof fields?.name === 'string') fields.nameWords = wordsOf(fields.name);
    if (typeof fields?.username === 'string') fields.usernameLower = fields.username.toLowerCase();
  }
  // a registration's upsert names the Telegram id in its filter and the referral code on insert
  const inserted = update?.$setOnInsert;
  if (typeof inserted?.referralCode === 'string') {
    const filter = this.getFilter() as { telegramId?: number };
    inserted.lookupWords = lookupWordsOf({
      telegramId: filter.telegramId ?? (inserted.telegramId as number),
      referralCode: inserted.referralCode,
    });
  }
});

userSchema.index({ telegramId: 1 }, { unique: true });
userSchema.index({ referralCode: 1 }, { unique: true });
// web sign-in finds the newest real player with a username; the console searches by its prefix
userSchema.index({ usernameLower: 1, lastSeenAt: -1 });
userSchema.index({ nameWords: 1 });
userSchema.index({ referrer: 1, createdAt: -1, _id: -1 });
userSchema.index({ referralQualifiedAt: 1 }, { sparse: true });
// friends counted and waiting to qualify: the sweep's qualification pass
userSchema.index({ referralState: 1, _id: 1 }, { partialFilterExpression: { referralState: 'joined' } });
// rewards waiting on risk: paid by the sweep, or at once when an operator clears the referrer or the friend
userSchema.index({ referralState: 1, referrer: 1 }, { partialFilterExpression: { referralState: 'waiting' } });
// the console's list: its default order, each filter in that order, and each column it sorts by (with the id as tie-breaker)
userSchema.index({ createdAt: -1, _id: -1 });
userSchema.index({ status: 1, createdAt: -1, _id: -1 });
userSchema.index({ lookupWords: 1 });
// the sweep that moves players blocked before statuses existed to banned
userSchema.index({ blocked: 1 }, { sparse: true });
userSchema.index({ joinNetwork: 1, createdAt: -1, _id: -1 });
userSchema.index({ walletAddresses: 1 });
userSchema.index({ 'risk.level': 1, createdAt: -1, _id: -1 });
// the risk sweep: players whose score is due
userSchema.index({ riskDueAt: 1 });
// a broadcast's audience: the players the bot may message, paged in id order
userSchema.index({ messagePermission: 1, _id: 1 });
userSchema.index({ isDemo: 1, createdAt: -1, _id: -1 });
for (const column of ['telegramId', 'referrersCount', 'missionsCount', 'doneMissionsCount', 'name', 'username', 'lastSeenAt', 'risk.score'])
  userSchema.index({ [column]: 1, _id: 1 });

export const UserModel = model('User', userSchema);
export type UserDocument = ReturnType<(typeof UserModel)['hydrate']>;
