import type { ResourceDefinition } from '../../rest/resource';
import { MissionModel } from './mission.models';

/** STUB: read-only until its module's work lands. */
export const missionsResource: ResourceDefinition = { name: 'missions', model: MissionModel };
