import type { ResourceDefinition } from '../../http/resource';
import { MiningSessionModel } from './miningSession.model';

/** Players' mining sessions, read-only. */
export const miningSessionsResource: ResourceDefinition = {
  name: 'mining-sessions',
  permission: 'users',
  model: MiningSessionModel,
  list: { filters: { user: 'objectId', coin: 'objectId' }, sortable: ['startedAt', 'endsAt', 'movedAt'] },
};
