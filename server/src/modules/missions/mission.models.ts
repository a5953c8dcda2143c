import { model, Schema } from 'mongoose';
import { USER_MISSION_STATUSES, VERIFY_TYPES } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';

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
      },
      /** The code said in a YouTube video: never leaves the server. */
      secretCode: { type: String, default: '', select: false, hidden: true },
      /** A Telegram mission's chat by id, for an invite link (t.me/+…) that does not name it. */
      telegramChatId: { type: String, default: '' },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
      /** A ⭐ mission: all of them must be done before any other can be claimed. */
      mustDone: { type: Boolean, default: false },
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
      category: ref('Category', { required: true }),
      status: { type: String, enum: USER_MISSION_STATUSES, default: 'started' },
      startedAt: { type: Date, default: () => new Date() },
      claimedAt: { type: Date, default: null },
      doneAt: { type: Date, default: null },
      reward: money(),
      coin: ref('GiftCoin', { required: true }),
      rejectReason: { type: String, default: '' },
      reviewedBy: ref('Account', { default: null }),
      /** Set with an approval, cleared once its reward is credited: lets a crash in between be finished at start. */
      awaitingCredit: { type: Boolean, default: false },
    },
    schemaOptions,
  ),
);
userMissionSchema.index({ user: 1, mission: 1 }, { unique: true });
userMissionSchema.index({ mission: 1, status: 1 });
// the console's reviews: newest first, each filter, each column it sorts by
userMissionSchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['status', 'user', 'mission', 'category', 'coin']) userMissionSchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
for (const column of ['status', 'claimedAt', 'doneAt', 'startedAt']) userMissionSchema.index({ [column]: 1, _id: 1 });
userMissionSchema.index({ awaitingCredit: 1 }, { partialFilterExpression: { awaitingCredit: true } });
export const UserMissionModel = model('UserMission', userMissionSchema);
