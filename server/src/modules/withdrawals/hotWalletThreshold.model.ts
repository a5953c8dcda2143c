import { model, Schema } from 'mongoose';
import { applyConventions, money, ref, schemaOptions } from '../../db/schemaKit';

/**
 * Below how much of a coin the hot wallet is "low": the treasury warns, and operators who asked are alerted, while it holds
 * less (0 or no record: no threshold). One record per coin, set from the treasury page.
 */
const hotWalletThresholdSchema = applyConventions(
  new Schema(
    {
      coin: ref('GiftCoin', { required: true }),
      below: money(),
      setBy: ref('Account', { default: null }),
    },
    schemaOptions,
  ),
);
// real MongoDB enforces it; the service writes by coin with one upsert, which the embedded engine keeps single too
hotWalletThresholdSchema.index({ coin: 1 }, { unique: true });

export const HotWalletThresholdModel = model('HotWalletThreshold', hotWalletThresholdSchema);
