import { BROADCAST_STATUSES } from '@gift/shared/schemas/broadcasts';

/** A broadcast's status; the names are translation keys. */
export const BROADCAST_STATUS_CHOICES = BROADCAST_STATUSES.map((id) => ({ id, name: `broadcasts.statuses.${id}` }));
