import { USER_MISSION_STATUSES } from '@gift/shared/constants';

/** A player's progress on a mission, by status; the names are translation keys (react-admin translates choices). */
export const USER_MISSION_STATUS_CHOICES = USER_MISSION_STATUSES.map((id) => ({ id, name: `statuses.progress.${id}` }));
