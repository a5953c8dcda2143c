import type { ResourceDefinition } from '../../http/resource';
import { StakeModel } from './staking.models';

/** Players' stakes, read-only: they open with the permission to read players. */
export const stakesResource: ResourceDefinition = {
  name: 'stakes',
  permission: 'users',
  model: StakeModel,
  list: {
    filters: { user: 'objectId', coin: 'objectId', stakingCoin: 'objectId', duration: 'equals' },
    sortable: ['startedAt', 'unlocksAt', 'claimedAt', 'amount'],
  },
};
