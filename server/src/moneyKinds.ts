import { accountGrantKinds } from './modules/accounts/accountGrants.service';
import { changeDecisionKinds } from './modules/accounts/changeDecision.kinds';
import { changeRequestKinds } from './modules/accounts/changeRequests.service';
import { decisionsOn } from './modules/accounts/changeDecisions.service';
import { coinChanges } from './modules/coins/giftCoins.service';
import { coinRequests } from './modules/coins/giftCoins.resource';
import { configRequests } from './modules/config/appConfig.resource';
import { configRewardDecisions } from './modules/config/configRewards.service';
import { registerOperationKind } from './modules/ledger/ledger.service';
import { prizeChanges } from './modules/leagues/leaguePrizes.service';
import { clawBackKinds } from './modules/clawbacks/clawbacks.kinds';
import { giftKinds } from './modules/gifts/gifts.kinds';
import { leaguePrizeKinds } from './modules/leagues/leaguePrizes.service';
import { miningKinds } from './modules/mining/mining.kinds';
import { missionKinds } from './modules/missions/missions.kinds';
import { missionRequests } from './modules/missions/missions.resource';
import { missionRewardDecisions } from './modules/missions/missions.service';
import { playerStatusKinds } from './modules/users/playerStatus.kinds';
import { referralKinds } from './modules/referrals/referrals.kinds';
import { shopKinds } from './modules/shop/shop.service';
import { starOfferChanges } from './modules/shop/shopBrakes.service';
import { starOfferRequests } from './modules/shop/shop.resource';
import { offerChanges } from './modules/staking/staking.service';
import { offerRequests } from './modules/staking/stakingCoins.resource';
import { stakingKinds } from './modules/staking/staking.kinds';
import { clusterCleanUpKinds } from './modules/users/clusterCleanUp.kinds';
import { payoutKinds } from './modules/withdrawals/payouts.service';
import { withdrawalKinds } from './modules/withdrawals/withdrawals.kinds';

/**
 * Every money kind with an admit check or follow-up steps, each defined in its own module and registered here, at the
 * composition root. Every process that records or finishes operations calls `registerMoneyKinds()` before it does (the
 * server's start, the app, the jobs, the tests' set-up); the engine refuses to record or finish an operation of a kind it
 * does not know, so a process that forgot would fail loudly rather than mark an operation done without its steps. A kind
 * that is a plain ledger reason (a gift, a streak reward) has neither and needs no registration.
 */
const MONEY_KINDS = [
  ...missionKinds,
  ...miningKinds,
  ...stakingKinds,
  ...referralKinds,
  ...playerStatusKinds,
  ...accountGrantKinds,
  // a second operator's decision on a change that loosens a money brake, on each record where such changes wait
  ...changeDecisionKinds([
    missionRewardDecisions,
    configRewardDecisions,
    decisionsOn(coinChanges),
    decisionsOn(offerChanges),
    decisionsOn(prizeChanges),
    decisionsOn(starOfferChanges),
  ]),
  // a save holding such a change for that decision: the request, whose step audits the save
  ...changeRequestKinds([missionRequests, configRequests, coinRequests, offerRequests, starOfferRequests]),
  ...withdrawalKinds,
  ...payoutKinds,
  ...leaguePrizeKinds,
  ...shopKinds,
  ...giftKinds,
  ...clawBackKinds,
  ...clusterCleanUpKinds,
];

let registered = false;
/** Registers every money kind with the engine; once per process (later calls do nothing). */
export function registerMoneyKinds(): void {
  if (registered) return;
  registered = true;
  for (const kind of MONEY_KINDS) registerOperationKind(kind);
}
