import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions } from '../../db/schemaKit';

const perCoin = [{ _id: false, coin: { type: Schema.Types.ObjectId, required: true }, amount: { type: Number, required: true } }];

/**
 * One closed day (UTC) of the analytics, rolled up once by the recovery sweep beside the dashboard's day, from that day's
 * records alone: each mission's funnel and cost, the players active that day by the day they joined, and each referrer's
 * friends joined, qualified and rewards paid. The analytics page reads these by their day, and never counts records.
 */
const dailyAnalyticsSchema = applyConventions(
  new Schema(
    {
      /** 'YYYY-MM-DD'. */
      day: { type: String, required: true },
      /** Players who joined that day (the cohort of the day). */
      joined: { type: Number, required: true },
      /** Players active that day who joined 1, 7 and 30 days before (their cohort's D1, D7, D30). */
      active: { d1: { type: Number, required: true }, d7: { type: Number, required: true }, d30: { type: Number, required: true } },
      missions: [
        {
          _id: false,
          mission: { type: Schema.Types.ObjectId, required: true },
          opened: Number,
          go: Number,
          claimed: Number,
          approved: Number,
          /** What the day's approvals paid, micro-units per coin. */
          cost: perCoin,
        },
      ],
      referrers: [
        {
          _id: false,
          referrer: { type: Schema.Types.ObjectId, required: true },
          joined: Number,
          qualified: Number,
          /** Referral rewards credited to the referrer that day, micro-units per coin. */
          paid: perCoin,
        },
      ],
    },
    schemaOptions,
  ),
);
dailyAnalyticsSchema.index({ day: 1 }, { unique: true });
export const DailyAnalyticsModel = model('DailyAnalytics', dailyAnalyticsSchema);
