import { giftCoinInput } from '@gift/shared';
import { orderedResource } from '../../rest/resource';
import { GiftCoinModel } from './giftCoin.model';
import { deleteGiftCoin } from './giftCoinDeletion.service';

/** The coins of the app; one that anyone holds or anything pays in cannot be deleted (disable it instead). */
export const giftCoinsResource = orderedResource('gift-coins', GiftCoinModel, giftCoinInput, {
  search: ['name', 'symbol'],
  remove: { run: deleteGiftCoin },
  filters: { network: 'equals', withdrawEnabled: 'boolean' },
  sortable: ['network', 'withdrawEnabled'],
});
