import { model, Schema } from 'mongoose';
import { DEFAULT_RISK_WEIGHTS, PAYOUT_RISK_HOLDS, RISK_SIGNALS } from '@gift/shared';
import { applyConventions, schemaOptions, money, ref } from '../../db/schemaKit';
import { writesThrough } from '../../db/shortLived';

const milestoneSchema = new Schema(
  { days: Number, coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin' }, amount: Number },
  { _id: false },
);
const asked = {
  id: { type: String, required: true },
  requestedBy: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
  requestedAt: { type: Date, required: true },
};
/** A referral reward waiting for a second operator: its coin, amount (micro-units) and a Premium friend's percent. */
const waitingReferralSchema = new Schema(
  {
    ...asked,
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin', required: true },
    amount: { type: Number, required: true },
    premiumRewardPercent: Number,
  },
  { _id: false },
);
/** Mining paying more, waiting for a second operator: the coin, a session's amount (micro-units) and its hours. */
const waitingMiningSchema = new Schema(
  {
    ...asked,
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin', required: true },
    amount: { type: Number, required: true },
    hours: { type: Number, required: true },
  },
  { _id: false },
);
/** Streak milestones waiting for a second operator, as the whole list they would replace. */
const waitingMilestonesSchema = new Schema({ ...asked, milestones: { type: [milestoneSchema], default: [] } }, { _id: false });
const rewardDecisionSchema = new Schema(
  {
    id: { type: String, required: true },
    status: { type: String, enum: ['approved', 'rejected'], required: true },
    decidedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedAt: Date,
    reason: { type: String, default: '' },
    /** What was decided, as it waited: a repeat of the approval audits it. */
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin' },
    amount: Number,
    milestones: { type: [milestoneSchema], default: undefined },
    premiumRewardPercent: Number,
    hours: Number,
  },
  { _id: false },
);

/** The one App Config record. */
const appConfigSchema = applyConventions(
  new Schema(
    {
      key: { type: String, default: 'app', immutable: true },
      botToken: { type: String, default: '', select: false, hidden: true },
      botUsername: { type: String, default: '' },
      miniAppName: { type: String, default: '' },
      /** Where players write to the operators (a t.me or https link), on the Help page; blank: none shown. */
      supportContact: { type: String, default: '' },
      referrerMessage: { type: String, default: '' },
      /** What Persian players read (and share); blank: the English. */
      fa: { referrerMessage: { type: String, default: '' } },
      referrerCoin: ref('GiftCoin', { default: null }),
      referrerCoinAmount: money(),
      defaultInviteLimit: { type: Number, default: 100 },
      miningCoin: ref('GiftCoin', { default: null }),
      earnDurationHours: { type: Number, default: 8 },
      earnAmount: money(),
      /** The day daily missions and streaks count in (IANA name). */
      timezone: { type: String, default: 'UTC' },
      /** A reward for each streak of daily missions reaching `days` (amount in micro-units; the console sees decimals). */
      streakMilestones: {
        type: [new Schema({ days: Number, coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin' }, amount: Number }, { _id: false })],
        default: [],
      },
      /**
       * Reward changes above their coin's threshold, waiting for a second operator (`configRewards.ts`): the live referral
       * reward, streak milestones and mining stay as they are until one approves. Null: nothing waits.
       */
      waitingRewards: {
        referral: { type: waitingReferralSchema, default: null },
        streakMilestones: { type: waitingMilestonesSchema, default: null },
        mining: { type: waitingMiningSchema, default: null },
      },
      /** The last decision on each kind, so a repeat of an approval a crash interrupted finishes it and no more. */
      rewardDecisions: {
        referral: { type: rewardDecisionSchema, default: null },
        streakMilestones: { type: rewardDecisionSchema, default: null },
        mining: { type: rewardDecisionSchema, default: null },
      },
      tonProofDomains: { type: [String], default: [] },
      allowTestnetWallets: { type: Boolean, default: false },
      /** The wallets operators pay withdrawals from by hand: a typed hash must be a transaction of one of them. */
      payoutWallets: { type: [String], default: [] },
      /** On: the hot wallet sends nothing; approved withdrawals wait. */
      payoutsPaused: { type: Boolean, default: false },
      /** The reasons a reviewer picks from to reject a Manual claim, each in English and Persian (`id` kept across saves). */
      rejectReasons: { type: [new Schema({ en: String, fa: String })], default: [] },
      /** Why the hot wallet's sender last stopped by itself (not enough funds, the cap, the chain away); empty while it runs. */
      payoutsStopped: { type: String, default: '' },
      /** The bot's reminders (notifications/reminders.ts): quiet hours in `timezone`, a daily cap per player, the streak's warning. */
      reminders: {
        quietStart: { type: String, default: '22:00' },
        quietEnd: { type: String, default: '08:00' },
        dailyCap: { type: Number, default: 3 },
        streakHoursBefore: { type: Number, default: 4 },
      },
      /** When a friend earns their referrer the reward (see appConfigInput), and a Premium friend's share. */
      referralQualification: {
        doneMissions: { type: Number, default: 0 },
        activeDays: { type: Number, default: 0 },
        premiumRewardPercent: { type: Number, default: 100 },
      },
      /** The risk score's weights (points a signal adds at full strength; 0 turns it off) and where review and high begin. */
      /** The leagues' week end: the percent of each league moved up one league, and the percent moved down one. */
      leagues: {
        promotePercent: { type: Number, default: 20 },
        relegatePercent: { type: Number, default: 20 },
      },
      risk: {
        weights: {
          type: new Schema(
            Object.fromEntries(RISK_SIGNALS.map((signal) => [signal, { type: Number, default: DEFAULT_RISK_WEIGHTS[signal] }])),
            {
              _id: false,
            },
          ),
          default: () => ({}),
        },
        reviewAt: { type: Number, default: 30 },
        highAt: { type: Number, default: 60 },
        /** From which level a player's withdrawals wait for an operator to clear their risk (PAYOUT_RISK_HOLDS). */
        holdPayoutsFrom: { type: String, enum: PAYOUT_RISK_HOLDS, default: 'review' },
      },
    },
    schemaOptions,
  ),
);
appConfigSchema.index({ key: 1 }, { unique: true });
/** Every write of the App Config in this instance, for the short-lived copy the hot reads share (`config.service.ts`). */
export const onAppConfigWrite = writesThrough(appConfigSchema);

export const AppConfigModel = model('AppConfig', appConfigSchema);
