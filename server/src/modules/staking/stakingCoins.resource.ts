import { microsToStored, stakingCoinInput, toMicros, type StakingCoinInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { StakingCoinModel } from './staking.models';
import { deleteStakingCoin } from './staking.service';

const asStored = (input: StakingCoinInput) => ({
  ...input,
  minAmount: microsToStored(toMicros(input.minAmount)),
  maxAmount: microsToStored(toMicros(input.maxAmount)),
});

/** Staking offers: one coin each, its bounds and a profit percent per term. */
export const stakingCoinsResource: ResourceDefinition<typeof stakingCoinInput> = {
  name: 'staking-coins',
  model: StakingCoinModel,
  list: { filters: { coin: 'objectId', enabled: 'boolean' }, sortable: ['order', 'coin', 'enabled'] },
  create: {
    schema: stakingCoinInput,
    run: async (input) => {
      await requireGiftCoin('coin', input.coin);
      return StakingCoinModel.create(asStored(input));
    },
  },
  update: {
    schema: stakingCoinInput,
    run: async (id, input) => {
      await requireGiftCoin('coin', input.coin);
      return StakingCoinModel.findByIdAndUpdate(id, { $set: asStored(input) }, { returnDocument: 'after', runValidators: true });
    },
  },
  remove: { run: deleteStakingCoin },
};
