import { model, Schema, type InferSchemaType } from 'mongoose';
import { suggestedCoinBrakes, toMicros } from '@gift/shared';
import { applyConventions, schemaOptions, money } from '../../db/schemaKit';
import { writesThrough } from '../../db/shortLived';
import { changeDecisionSchema, waitingChangeSchema } from '../accounts/waitingChanges.service';

/** A brake's amount: no default of its own, so a new coin gets the suggested one (below), typed as the money it is. */
const brake = () => ({ ...money(), default: undefined }) as unknown as ReturnType<typeof money>;

/** A coin of the app, and where it lives on TON. */
const giftCoinSchema = applyConventions(
  new Schema(
    {
      name: { type: String, required: true },
      /** The name Persian players read; blank: the English one. */
      fa: { name: { type: String, default: '' } },
      symbol: { type: String, required: true },
      icon: { type: String, default: '' },
      decimals: { type: Number, default: 9 },
      /** USD price as a decimal string (not money held by anyone); empty when unknown. */
      usdPrice: { type: String, default: '' },
      minWithdraw: money(),
      withdrawEnabled: { type: Boolean, default: false },
      /**
       * A withdrawal above this amount needs a second operator's approval before the hot wallet pays it (0: never, an explicit
       * choice). Unset on a new coin: the suggested amount (`suggestedCoinBrakes`), set before validation.
       */
      payoutApprovalAbove: brake(),
      /** At most this much is paid out by the hot wallet per UTC day (0: no cap). */
      payoutDailyCap: money(),
      /** Above this, a gift, a correction or a reward (missions, App Config) waits for a second operator; 0: never. Unset: suggested. */
      giftApprovalAbove: brake(),
      /**
       * The most one operator creates alone in this coin in a rolling 24 hours; past it each further gift or Manual approval
       * waits for a second operator. 0: no limit. Unset: suggested. Absent on a coin saved before it existed: the start-up
       * migration (`coinBrakes.service.ts`) sets it, with the suggested thresholds where that coin had the old implicit 0.
       */
      operatorDailyLimit: brake(),
      network: { type: String, enum: ['ton', 'jetton'], default: 'jetton' },
      jettonMaster: { type: String, default: '' },
      enabled: { type: Boolean, default: true },
      order: { type: Number, default: 0 },
      /** A looser brake (never, or a higher amount) waiting for a second operator (`accounts/waitingChanges.ts`); null: none. */
      waitingChange: { type: waitingChangeSchema, default: null },
      lastChangeDecision: { type: changeDecisionSchema, default: null },
    },
    schemaOptions,
  ),
);
// thresholds on by default: whatever writes a new coin (the console, the demo seed, a test) gets the suggested ones it left unset
giftCoinSchema.pre('validate', function fillBrakes() {
  const suggested = suggestedCoinBrakes({ usdPrice: this.usdPrice });
  const coin = this as unknown as Record<string, unknown>;
  for (const field of ['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit'] as const)
    if (coin[field] === undefined || coin[field] === null) coin[field] = Number(toMicros(suggested[field]));
});
giftCoinSchema.index({ symbol: 1 });
giftCoinSchema.index({ enabled: 1, order: 1 });
/** Every write of a coin in this instance, for the short-lived list the hot reads share (`giftCoins.service.ts`). */
export const onCoinWrite = writesThrough(giftCoinSchema);
export const GiftCoinModel = model('GiftCoin', giftCoinSchema);
export type GiftCoin = InferSchemaType<typeof giftCoinSchema>;

/**
 * Who holds a coin's symbol and its place on TON ('symbol:GIFT', 'chain:ton', 'chain:jetton:0:…'): one conditional upsert
 * decides a race between two saves, since the embedded database does not enforce unique indexes. A hold whose coin is gone,
 * or no longer has that key, is stale and may be taken over.
 */
const coinKeySchema = new Schema(
  {
    key: { type: String, required: true },
    coin: { type: Schema.Types.ObjectId, ref: 'GiftCoin', required: true },
  },
  { timestamps: true },
);
coinKeySchema.index({ key: 1 }, { unique: true });
coinKeySchema.index({ coin: 1 });
export const CoinKeyModel = model('CoinKey', coinKeySchema);
