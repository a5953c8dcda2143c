import { registerOperationKind } from './modules/ledger/ledger.service';
import { clawBackKinds } from './modules/clawbacks/clawbacks.kinds';
import { giftKinds } from './modules/gifts/gifts.kinds';
import { leaguePrizeKinds } from './modules/leagues/leaguePrizes.service';
import { miningKinds } from './modules/mining/mining.kinds';
import { missionKinds } from './modules/missions/missions.kinds';
import { playerStatusKinds } from './modules/users/playerStatus.kinds';
import { referralKinds } from './modules/referrals/referrals.kinds';
import { shopKinds } from './modules/shop/shop.service';
import { stakingKinds } from './modules/staking/staking.kinds';
import { clusterCleanUpKinds } from './modules/users/clusterCleanUp.kinds';
import { payoutKinds } from './modules/withdrawals/payoutSender';
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
