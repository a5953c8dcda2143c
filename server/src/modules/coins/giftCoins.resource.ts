import { giftCoinInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { GiftCoinModel } from './giftCoin.model';
import { deleteGiftCoin } from './giftCoinDeletion.service';

/** The coins of the app; one that anyone holds or anything pays in cannot be deleted (disable it instead). */
export const giftCoinsResource: ResourceDefinition<typeof giftCoinInput> = {
  name: 'gift-coins',
  model: GiftCoinModel,
  create: { schema: giftCoinInput },
  update: { schema: giftCoinInput },
  remove: { run: deleteGiftCoin },
  list: {
    searchFields: ['name', 'symbol'],
    substringSearch: true,
    filters: { enabled: 'boolean', network: 'equals', withdrawEnabled: 'boolean' },
    sortable: ['order', 'symbol', 'name', 'network', 'withdrawEnabled', 'enabled'],
  },
};
