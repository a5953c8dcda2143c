import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions } from '../../db/schemaKit';

const perCoin = [{ _id: false, coin: { type: Schema.Types.ObjectId, required: true }, amount: { type: Number, required: true } }];

/**
 * One closed day (UTC) of the dashboard: its counts and per-coin sums, rolled up once by the recovery sweep an
 * hour after the day ended, from the records of that day alone. The dashboard reads these instead of scanning.
 */
const dailyFiguresSchema = applyConventions(
  new Schema(
    {
      /** 'YYYY-MM-DD'. */
      day: { type: String, required: true },
      newPlayers: { type: Number, required: true },
      claims: { type: Number, required: true },
      withdrawals: { type: Number, required: true },
      /** Coins issued that day (missions, referrals, mining, gifts), per coin. */
      issued: perCoin,
      /** How the principal locked in stakes changed that day, per coin. */
      staked: perCoin,
    },
    schemaOptions,
  ),
);
dailyFiguresSchema.index({ day: 1 }, { unique: true });
export const DailyFiguresModel = model('DailyFigures', dailyFiguresSchema);

/**
 * The figures of the days not rolled up yet (today, and yesterday for its first hour) and of the queues (reviews
 * waiting, pending withdrawals, mining running): recounted from the records by the recovery sweep every
 * LIVE_FIGURES_MS, so a dashboard load reads two small collections and never counts records itself.
 */
const liveFiguresSchema = applyConventions(
  new Schema(
    {
      key: { type: String, default: 'live', immutable: true },
      computedAt: { type: Date, required: true },
      /** The first day these figures count (the day after the last rolled-up one). */
      since: { type: Date, required: true },
      players: { type: Number, required: true },
      newToday: { type: Number, required: true },
      activeToday: { type: Number, required: true },
      missionsDoneToday: { type: Number, required: true },
      reviewsWaiting: { type: Number, required: true },
      /** Gifts and account grants waiting for a second operator (live figures kept before these read as 0). */
      giftsWaiting: { type: Number, default: 0 },
      grantsWaiting: { type: Number, default: 0 },
      /**
       * Brake changes waiting for a second operator, the newest first (changesWaiting.service.ts), with who asked by name and by
       * id: the approvals alert reads them here (never the one who asked), so they are read once per recount.
       */
      changesWaiting: [
        {
          _id: false,
          id: { type: String, required: true },
          resource: { type: String, required: true },
          record: { type: String, required: true },
          name: { type: String, default: '' },
          by: { type: String, default: '' },
          /** The asking operator's id ('' in figures kept before it was: the alert waits for the next recount). */
          requestedBy: { type: String, default: '' },
          at: { type: Date, required: true },
        },
      ],
      miningRunning: { type: Number, required: true },
      pendingWithdrawals: [
        {
          _id: false,
          coin: { type: Schema.Types.ObjectId, required: true },
          amount: { type: Number, required: true },
          count: { type: Number, required: true },
        },
      ],
      issued: perCoin,
      staked: perCoin,
      days: [
        { _id: false, day: { type: String, required: true }, newPlayers: Number, claims: Number, withdrawals: Number, issued: perCoin },
      ],
    },
    schemaOptions,
  ),
);
liveFiguresSchema.index({ key: 1 }, { unique: true });
export const LiveFiguresModel = model('LiveFigures', liveFiguresSchema);
