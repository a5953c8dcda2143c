import { model, Schema } from 'mongoose';
import { BOOST_KINDS } from '@gift/shared';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';
import { changeDecisionSchema, waitingChangeSchema } from '../accounts/waitingChanges.service';

/** A Stars shop item as operators set it: what it gives, its price in whole Stars, whether it is on sale. */
const starOfferSchema = applyConventions(
  new Schema(
    {
      title: { type: String, required: true },
      description: { type: String, default: '' },
      fa: { title: { type: String, default: '' }, description: { type: String, default: '' } },
      kind: { type: String, enum: BOOST_KINDS, required: true },
      stars: { type: Number, required: true },
      /** A multiplier's percent of the session's amount (150 = ×1.5); null for the other kinds. */
      multiplierPercent: { type: Number, default: null },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
      /** Terms that let Stars buy more coins, waiting for a second operator (shopBrakes.service.ts); null: none. */
      waitingChange: { type: waitingChangeSchema, default: null },
      lastChangeDecision: { type: changeDecisionSchema, default: null },
    },
    schemaOptions,
  ),
);
starOfferSchema.index({ enabled: 1, order: 1, _id: 1 });
export const StarOfferModel = model('StarOffer', starOfferSchema);

const PURCHASE_STATUSES = ['pending', 'paid', 'refunded'] as const;
/** none: not granted yet; ready: granted, not used; used: spent (or spent at once, an extra session once moved); revoked: taken back by a refund. */
const BOOST_STATES = ['none', 'ready', 'used', 'revoked'] as const;
export type BoostState = (typeof BOOST_STATES)[number];

/**
 * One invoice of the shop and what became of it: pending (the invoice link was made; its id is the invoice's payload), paid
 * (Telegram's successful_payment, under its charge id) and refunded. What it gives is copied from the item when the invoice
 * is made, so a later edit of the item changes no invoice already out.
 */
const starPurchaseSchema = applyConventions(
  new Schema(
    {
      user: ref('User', { required: true }),
      offer: ref('StarOffer', { required: true }),
      title: { type: String, required: true },
      kind: { type: String, enum: BOOST_KINDS, required: true },
      stars: { type: Number, required: true },
      multiplierPercent: { type: Number, default: null },
      currency: { type: String, default: 'XTR' },
      status: { type: String, enum: PURCHASE_STATUSES, default: 'pending' },
      invoiceLink: { type: String, default: '' },
      /** Telegram's telegram_payment_charge_id: a refund names it. */
      chargeId: { type: String, default: null },
      paidAt: { type: Date, default: null },
      boost: { type: String, enum: BOOST_STATES, default: 'none' },
      grantedAt: { type: Date, default: null },
      usedAt: { type: Date, default: null },
      refundedAt: { type: Date, default: null },
      refundedBy: ref('Account', { default: null }),
    },
    schemaOptions,
  ),
);
starPurchaseSchema.index({ chargeId: 1 }, { unique: true, partialFilterExpression: { chargeId: { $type: 'string' } } });
// the player's purchases, and their next multiplier
starPurchaseSchema.index({ user: 1, createdAt: -1, _id: -1 });
starPurchaseSchema.index({ user: 1, kind: 1, boost: 1, paidAt: 1 });
// the console's list and the revenue by period
starPurchaseSchema.index({ createdAt: -1, _id: -1 });
starPurchaseSchema.index({ status: 1, createdAt: -1, _id: -1 });
starPurchaseSchema.index({ paidAt: 1, status: 1 });
for (const column of ['stars', 'paidAt', 'refundedAt']) starPurchaseSchema.index({ [column]: 1, _id: 1 });
export const StarPurchaseModel = model('StarPurchase', starPurchaseSchema);
