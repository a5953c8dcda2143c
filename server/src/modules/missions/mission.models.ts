import { model, Schema } from 'mongoose';
import { MISSION_REPEATS, PROOF_KINDS, USER_MISSION_STATUSES, VERIFY_TYPES } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

/** A reward change waiting for a second operator: what it asks for (micro-units), who asked and when. */
const waitingRewardSchema = new Schema(
  {
    id: { type: String, required: true },
    reward: { type: Number, required: true },
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin', required: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    requestedAt: { type: Date, required: true },
  },
  { _id: false },
);
/** How a waiting reward change ended. */
const rewardDecisionSchema = new Schema(
  {
    id: { type: String, required: true },
    status: { type: String, enum: ['approved', 'rejected'], required: true },
    /** The reward (micro-units) and coin decided on, for the decision's audit. */
    reward: { type: Number },
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin' },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedAt: Date,
    reason: { type: String, default: '' },
  },
  { _id: false },
);

const missionSchema = applyConventions(
  new Schema(
    {
      category: ref('Category', { required: true }),
      title: { type: String, required: true },
      description: { type: String, default: '' },
      link: { type: String, default: '' },
      image: { type: String, default: '' },
      reward: money({ required: true }),
      coin: ref('GiftCoin', { required: true }),
      verifyType: { type: String, enum: VERIFY_TYPES, required: true },
      /** Minutes to wait after Go before Claim works (Time, Instagram). */
      verifyDuration: { type: Number, default: 0 },
      claimButton: { type: String, default: 'Claim' },
      goButton: { type: String, default: 'Go' },
      /** What Persian players read; a blank text falls back to the English. */
      fa: {
        title: { type: String, default: '' },
        description: { type: String, default: '' },
        claimButton: { type: String, default: '' },
        goButton: { type: String, default: '' },
        storyText: { type: String },
      },
      /** The code said in a YouTube video: never leaves the server. */
      secretCode: { type: String, default: '', select: false, hidden: true },
      /** A Telegram mission's chat by id, for an invite link (t.me/+…) that does not name it. */
      telegramChatId: { type: String, default: '' },
      /** An emoji status mission's custom emoji id: the status the player sets, checked with getChat. */
      emojiId: { type: String, default: '' },
      /** A story mission's picture or video and its caption (Telegram's story editor opens with them). */
      storyMedia: { type: String, default: '' },
      storyText: { type: String, default: '' },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
      /** A ⭐ mission: all of them must be done before any other can be claimed. */
      mustDone: { type: Boolean, default: false },
      /** Players see it only from startsAt and before endsAt (null: unbounded). */
      startsAt: { type: Date, default: null },
      endsAt: { type: Date, default: null },
      /** The most completions; null: no limit. */
      cap: { type: Number, default: null },
      repeat: { type: String, enum: MISSION_REPEATS, default: 'none' },
      /** What a Manual mission's claim carries for its review. */
      proof: { type: [{ type: String, enum: PROOF_KINDS }], default: [] },
      /**
       * The reward (micro-units) and coin a second operator approved (`missionRewards.ts`): enabling the mission at them again
       * needs no new approval. Null: none approved.
       */
      approvedReward: { type: Number, default: null },
      approvedCoin: ref('GiftCoin', { default: null }),
      /**
       * A reward above its coin's threshold asked to go live (a new mission, an enabled one, a changed reward), waiting for a
       * second operator: the mission stays as it was (a new one disabled) until approved. Null: nothing waits.
       */
      waiting: { type: waitingRewardSchema, default: null },
      /** The last decision on a waiting reward, so a repeat of an approval a crash interrupted finishes it and no more. */
      lastDecision: { type: rewardDecisionSchema, default: null },
      /** Places taken: players' progress done or waiting for review (`missionPlaces.ts`). */
      completions: { type: Number, default: 0 },
      /** False (or absent) on a mission whose progress predates the counter: the sweep counts it once. */
      completionsCounted: { type: Boolean, default: true, hidden: true },
      /**
       * The keys of the money engine's operations that took a place or gave one back, until they are done (`missionPlaces.ts`):
       * each change of `completions` records its operation's key in the same conditional write, so a retry of the operation or
       * the engine's sweep finishing it changes nothing more.
       */
      placeKeys: { type: [String], default: [], hidden: true },
    },
    schemaOptions,
  ),
);
missionSchema.index({ category: 1, enabled: 1, order: 1 });
missionSchema.index({ mustDone: 1, enabled: 1 });
export const MissionModel = model('Mission', missionSchema);

/** A player's progress on one mission. */
const userMissionSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      mission: ref('Mission', { required: true }),
      /** A daily mission's day (YYYY-MM-DD in the App Config's timezone), each its own progress; null for a mission done once. */
      day: { type: String, default: null },
      category: ref('Category', { required: true }),
      status: { type: String, enum: USER_MISSION_STATUSES, default: 'started' },
      startedAt: { type: Date, default: () => new Date() },
      claimedAt: { type: Date, default: null },
      doneAt: { type: Date, default: null },
      reward: money(),
      coin: ref('GiftCoin', { required: true }),
      rejectReason: { type: String, default: '' },
      /** A canned reason's Persian, shown to a Persian player in place of `rejectReason`; blank: the English is shown. */
      rejectReasonFa: { type: String, default: '' },
      /** What the player attached to their last claim (a Manual mission's proof): a link, a text, a picture's id. */
      proof: {
        link: { type: String, default: '' },
        text: { type: String, default: '' },
        imageId: { type: String, default: '' },
      },
      reviewedBy: ref('Account', { default: null }),
      /**
       * An approval past the reviewer's daily limit of value created alone (`coinBrakes.service.ts`): the claim stays pending until a
       * second, independent operator approves it too. Cleared by the decision.
       */
      firstApprovedBy: ref('Account', { default: null }),
      firstApprovedAt: { type: Date, default: null },
      /**
       * The reviewer who opened the pending claim, and until when: another reviewer's decision is refused until then. Taken and
       * renewed by one conditional write (`reviewLocks.ts`); cleared by the decision.
       */
      lockedBy: ref('Account', { default: null }),
      lockedByName: { type: String, default: '' },
      lockedUntil: { type: Date, default: null },
      /**
       * An older version's flag of a credit owed (set with done, cleared once credited): read once at start by the migration
       * that finishes it (`missionCredit.ts`). The credit is an operation of the engine now (`missions.kinds.ts`).
       */
      awaitingCredit: { type: Boolean },
    },
    schemaOptions,
  ),
);
userMissionSchema.index({ user: 1, mission: 1, day: 1 }, { unique: true });
userMissionSchema.index({ mission: 1, status: 1 });
// the console's reviews: newest first, each filter, each column it sorts by
userMissionSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['status', 'user', 'mission', 'category', 'coin']) userMissionSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['status', 'claimedAt', 'doneAt', 'startedAt']) userMissionSchema.index({ [column]: 1, _id: 1 });
// the review queue: pending claims, the longest waiting first
userMissionSchema.index({ status: 1, claimedAt: 1, _id: 1 });
// the sweep's check that a proof picture is still carried by a claim
userMissionSchema.index({ 'proof.imageId': 1 });
userMissionSchema.index({ awaitingCredit: 1 }, { partialFilterExpression: { awaitingCredit: true } });
// a player's timeline: each moment of their progress, newest first (missionHistory.service.ts)
for (const moment of ['startedAt', 'claimedAt', 'doneAt']) userMissionSchema.index({ user: 1, [moment]: -1, _id: -1 });
userMissionSchema.index({ user: 1, status: 1, updatedAt: -1, _id: -1 });
export const UserMissionModel = model('UserMission', userMissionSchema);
