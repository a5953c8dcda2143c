import type { ResourceDefinition } from '../../rest/resource';
import { GiftCoinModel } from './giftCoin.model';

/** STUB: read-only until its module's work lands. */
export const giftCoinsResource: ResourceDefinition = { name: 'gift-coins', model: GiftCoinModel };
