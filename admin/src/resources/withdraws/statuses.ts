import { WITHDRAWAL_STATUSES } from '@gift/shared/constants';

/** A withdrawal's status; the names are translation keys (react-admin translates choices). */
export const WITHDRAWAL_STATUS_CHOICES = WITHDRAWAL_STATUSES.map((id) => ({ id, name: `statuses.withdrawal.${id}` }));

/** Where an automated payout stands on chain (empty before the hot wallet takes it). */
const PAYOUT_CHAIN_STATES = ['in-batch', 'sent', 'confirmed', 'bounced', 'expired', 'unsent'] as const;
export const CHAIN_STATE_CHOICES = PAYOUT_CHAIN_STATES.map((id) => ({ id, name: `withdraws.chainStates.${id}` }));
