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
