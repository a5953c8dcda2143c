import { giftCoinInput, suggestedCoinBrakes, type CoinBrakes, type GiftCoinInput } from '@gift/shared';
import { orderedResource } from '../../rest/resource';
import { saveCoinIdentity } from './coinIdentity';
import { GiftCoinModel } from './giftCoin.model';
import { deleteGiftCoin } from './giftCoinDeletion.service';

const BRAKES = ['giftApprovalAbove', 'payoutApprovalAbove', 'operatorDailyLimit'] as const;

/** The coin's brakes as typed, each one left out replaced by the suggested amount for its price. */
function brakesOrSuggested(input: GiftCoinInput): CoinBrakes {
  const suggested = suggestedCoinBrakes({ usdPrice: input.usdPrice });
  return Object.fromEntries(BRAKES.map((field) => [field, input[field] ?? suggested[field]])) as unknown as CoinBrakes;
}

/** The fields the body carried (the brakes are optional): an absent one is not set. */
const withoutAbsent = (input: GiftCoinInput) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

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
    // a brake the form left out is the suggested one: thresholds are on unless an operator says never (0)
    run: (input) =>
      saveCoinIdentity(input, undefined, (_keys, _id) => GiftCoinModel.create({ ...input, ...brakesOrSuggested(input), _id })),
  },
  update: {
    schema: giftCoinInput,
    // a brake the body leaves out keeps its saved amount: an edit never turns a brake off by omission
    run: (id, input) =>
      saveCoinIdentity(input, id, () =>
        GiftCoinModel.findByIdAndUpdate(id, { $set: withoutAbsent(input) }, { returnDocument: 'after', runValidators: true }),
      ),
  },
};
