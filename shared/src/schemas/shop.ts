import { z } from 'zod';
import { blankable, nonEmpty, objectId, order } from './common';

/**
 * What a Stars shop item gives: a multiplier on the player's next mining session, an extra mining session (its reward
 * ready to move at once), or a streak freeze (one missed day of daily missions that does not break the streak).
 */
export const BOOST_KINDS = ['multiplier', 'extraSession', 'streakFreeze'] as const;
export type BoostKind = (typeof BOOST_KINDS)[number];

/** Telegram Stars: whole Stars, 1 to 10,000 per invoice. */
const MAX_STARS_PRICE = 10_000;

/** A Stars shop item as an operator sets it; the multiplier is a percent of the session's amount (150 = ×1.5). */
export const starOfferInput = z
  .object({
    title: nonEmpty(60),
    description: blankable(z.string().trim().max(200)),
    fa: z
      .object({ title: blankable(z.string().trim().max(60)), description: blankable(z.string().trim().max(200)) })
      .partial()
      .default({}),
    kind: z.enum(BOOST_KINDS, { error: 'Choose a multiplier, an extra session or a streak freeze' }),
    stars: z.coerce.number().int('Whole Stars only').min(1, 'At least 1 Star').max(MAX_STARS_PRICE, `At most ${MAX_STARS_PRICE} Stars`),
    multiplierPercent: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      z.coerce.number().int('A whole percent').min(101, 'More than 100%').max(1000, 'At most 1000%').optional(),
    ),
    order,
    enabled: z.boolean().default(true),
  })
  .refine((offer) => offer.kind !== 'multiplier' || offer.multiplierPercent !== undefined, {
    path: ['multiplierPercent'],
    message: 'A multiplier needs its percent, like 200 for ×2',
  });

/** The player asks for an invoice of one shop item. */
export const shopInvoiceInput = z.object({ offerId: objectId });
