import { isValidObjectId, type Types } from 'mongoose';
import { badInput } from '../../lib/errors';
import { AppConfigModel } from '../config/appConfig.model';
import { BalanceModel } from '../ledger/ledger.models';
import { MissionModel } from '../missions/mission.models';
import { StakingCoinModel } from '../staking/staking.models';
import { GiftCoinModel } from './giftCoin.model';

/** A form's coin field must name a gift coin that exists; the answer names the field. */
export async function requireGiftCoin(field: string, id: string | Types.ObjectId): Promise<void> {
  if (!isValidObjectId(id) || !(await GiftCoinModel.exists({ _id: id }))) throw badInput({ [field]: 'Choose an existing gift coin' });
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** What still points at a coin, in words ('2 balances and 1 mission'); empty when nothing does. */
export async function giftCoinUses(id: string): Promise<string> {
  const [balances, missions, stakingOffers, configUses] = await Promise.all([
    BalanceModel.countDocuments({ coin: id }),
    MissionModel.countDocuments({ coin: id }),
    StakingCoinModel.countDocuments({ coin: id }),
    AppConfigModel.countDocuments({ $or: [{ referrerCoin: id }, { miningCoin: id }] }),
  ]);
  const uses = [
    balances && plural(balances, 'balance'),
    missions && plural(missions, 'mission'),
    stakingOffers && plural(stakingOffers, 'staking coin'),
    configUses && 'the App Config (referrer or mining coin)',
  ].filter((use): use is string => !!use);
  return uses.length > 1 ? `${uses.slice(0, -1).join(', ')} and ${uses.at(-1)}` : (uses[0] ?? '');
}
