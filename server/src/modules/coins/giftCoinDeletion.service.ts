import { AppError } from '../../lib/errors';
import { countConfigUsesOf } from '../config/config.service';
import { countBalancesInCoin } from '../ledger/ledger.service';
import { countMissionsPayingIn } from '../missions/missions.service';
import { countStakingOffersOf } from '../staking/staking.service';
import { GiftCoinModel } from './giftCoin.model';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** What still points at a coin, in words ('2 balances and 1 mission'); empty when nothing does. */
async function giftCoinUses(id: string): Promise<string> {
  const [balances, missions, stakingOffers, configUses] = await Promise.all([
    countBalancesInCoin(id),
    countMissionsPayingIn(id),
    countStakingOffersOf(id),
    countConfigUsesOf(id),
  ]);
  const uses = [
    balances && plural(balances, 'balance'),
    missions && plural(missions, 'mission'),
    stakingOffers && plural(stakingOffers, 'staking coin'),
    configUses && 'the App Config (referrer or mining coin)',
  ].filter((use): use is string => !!use);
  return uses.length > 1 ? `${uses.slice(0, -1).join(', ')} and ${uses.at(-1)}` : (uses[0] ?? '');
}

/** Deletes a coin nothing points at; one that anyone holds or anything pays in stays (disable it instead). */
export async function deleteGiftCoin(id: string): Promise<void> {
  const uses = await giftCoinUses(id);
  if (uses) throw new AppError('IN_USE', { uses });
  await GiftCoinModel.deleteOne({ _id: id });
}
