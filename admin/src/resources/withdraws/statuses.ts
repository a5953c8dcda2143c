import { WITHDRAWAL_STATUSES } from '@gift/shared/constants';

/** A withdrawal's status; the names are translation keys (react-admin translates choices). */
export const WITHDRAWAL_STATUS_CHOICES = WITHDRAWAL_STATUSES.map((id) => ({ id, name: `statuses.withdrawal.${id}` }));
