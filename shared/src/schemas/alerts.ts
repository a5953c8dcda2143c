import { z } from 'zod';
import { LANGUAGES } from '../constants';
import { amount, objectId } from './common';

/**
 * What the bot can tell an operator, each switchable: new Manual claims waiting review (batched), gifts or access
 * waiting for their approval, payouts stopped, the hot wallet low, a broadcast finished.
 */
export const OPERATOR_ALERT_KINDS = [
  'claims',
  'approvals',
  'payouts-stopped',
  'hot-wallet',
  'broadcast-finished',
  'stars-unmatched',
] as const;
export type OperatorAlertKind = (typeof OPERATOR_ALERT_KINDS)[number];

/** PUT /api/admin/alerts/me: the kinds the operator wants, and the language the bot writes in. */
export const alertPreferencesInput = z.object({
  kinds: z.array(z.enum(OPERATOR_ALERT_KINDS, { message: 'Unknown alert' })).max(OPERATOR_ALERT_KINDS.length),
  language: z.enum(LANGUAGES).optional(),
});

/** POST /api/admin/alerts/me/link: a one-time link to the bot, answered in this language. */
export const alertLinkInput = z.object({ language: z.enum(LANGUAGES).default('en') });

/** PUT /api/admin/treasury/threshold: warn (and alert) while the hot wallet holds less than `below` of the coin; 0 turns it off. */
export const hotWalletThresholdInput = z.object({ coin: objectId, below: amount });
