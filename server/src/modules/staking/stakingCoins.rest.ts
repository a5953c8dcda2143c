import type { ResourceDefinition } from '../../rest/resource';
import { StakingCoinModel } from './staking.models';

/** STUB: read-only until its module's work lands. */
export const stakingCoinsResource: ResourceDefinition = { name: 'staking-coins', model: StakingCoinModel };
