import { giftCoinInput } from '@gift/shared';
import { orderedResource } from '../../rest/resource';
import { saveCoinIdentity } from './coinIdentity';
import { GiftCoinModel } from './giftCoin.model';
import { deleteGiftCoin } from './giftCoinDeletion.service';

/**
 * The coins of the app; one that anyone holds or anything pays in cannot be deleted (disable it instead). A coin's symbol is
 * unique whatever its case, there is one native TON coin, and a jetton master belongs to one coin.
 */
const resource = orderedResource('gift-coins', GiftCoinModel, giftCoinInput, {
  search: ['name', 'symbol'],
  remove: { run: deleteGiftCoin },
  filters: { network: 'equals', withdrawEnabled: 'boolean' },
  sortable: ['network', 'withdrawEnabled'],
});

export const giftCoinsResource: typeof resource = {
  ...resource,
  create: {
    schema: giftCoinInput,
    run: (input) => saveCoinIdentity(input, undefined, (_keys, _id) => GiftCoinModel.create({ ...input, _id })),
  },
  update: {
    schema: giftCoinInput,
    run: (id, input) =>
      saveCoinIdentity(input, id, () =>
        GiftCoinModel.findByIdAndUpdate(id, { $set: input }, { returnDocument: 'after', runValidators: true }),
      ),
  },
};
