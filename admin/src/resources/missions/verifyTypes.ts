import { MISSION_REPEATS, PROOF_KINDS, VERIFY_TYPES } from '@gift/shared/constants';

/** How a mission is verified; the names are translation keys (react-admin translates choices). */
export const VERIFY_TYPE_CHOICES = VERIFY_TYPES.map((id) => ({ id, name: `verifyTypes.${id}` }));

/** Once, or again each day. */
export const REPEAT_CHOICES = MISSION_REPEATS.map((id) => ({ id, name: `repeats.${id}` }));

/** What a Manual mission's claim carries for its review. */
export const PROOF_CHOICES = PROOF_KINDS.map((id) => ({ id, name: `proofKinds.${id}` }));
