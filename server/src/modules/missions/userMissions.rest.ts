import type { ResourceDefinition } from '../../rest/resource';
import { UserMissionModel } from './mission.models';

/** STUB: read-only until its module's work lands. */
export const userMissionsResource: ResourceDefinition = { name: 'user-missions', model: UserMissionModel };
