import { microsToStored, stakingCoinInput, toMicros, type StakingCoinInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { AppError } from '../../lib/errors';
import { StakeModel, StakingCoinModel } from './staking.models';

const asStored = (input: StakingCoinInput) => ({
  ...input,
  minAmount: microsToStored(toMicros(input.minAmount)),
  maxAmount: microsToStored(toMicros(input.maxAmount)),
});

/** Staking offers: one coin each, its bounds and a profit percent per term. */
export const stakingCoinsResource: ResourceDefinition<typeof stakingCoinInput> = {
  name: 'staking-coins',
  model: StakingCoinModel,
  createSchema: stakingCoinInput,
  filters: { coin: 'objectId', enabled: 'boolean' },
  sortable: ['order'],
  canDelete: true,
  // unclaimed positions are paid from the offer they were staked under: disable it instead
  remove: async (id) => {
    const stakes = await StakeModel.countDocuments({ stakingCoin: id });
    if (stakes) throw new AppError('IN_USE', { uses: `${stakes} stake${stakes === 1 ? '' : 's'} (disable it instead)` });
    await StakingCoinModel.deleteOne({ _id: id });
  },
  create: async (input) => {
    await requireGiftCoin('coin', input.coin);
    return StakingCoinModel.create(asStored(input));
  },
  update: async (id, input) => {
    await requireGiftCoin('coin', input.coin);
    return StakingCoinModel.findByIdAndUpdate(id, { $set: asStored(input) }, { returnDocument: 'after', runValidators: true });
  },
};
