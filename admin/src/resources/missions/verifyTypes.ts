import { MISSION_REPEATS, VERIFY_TYPES } from '@gift/shared/constants';

/** How a mission is verified; the names are translation keys (react-admin translates choices). */
export const VERIFY_TYPE_CHOICES = VERIFY_TYPES.map((id) => ({ id, name: `verifyTypes.${id}` }));

/** Once, or again each day. */
export const REPEAT_CHOICES = MISSION_REPEATS.map((id) => ({ id, name: `repeats.${id}` }));
