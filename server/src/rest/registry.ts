import { accountsResource } from '../modules/accounts/accounts.resource';
import { accountGrantsResource } from '../modules/accounts/accountGrants.resource';
import { appConfigResource } from '../modules/config/appConfig.resource';
import { usersResource } from '../modules/users/users.resource';
import { giftsResource, playerMoneyDoors } from '../modules/gifts/gifts.resource';
import { ledgerEntriesResource } from '../modules/ledger/ledgerEntries.resource';
import { balancesResource } from '../modules/ledger/balances.resource';
import { miningSessionsResource } from '../modules/mining/miningSessions.resource';
import { stakesResource } from '../modules/staking/stakes.resource';
import { auditResource } from '../modules/audit/audit.resource';
import { categoriesResource } from '../modules/content/categories.resource';
import { coversResource } from '../modules/content/covers.resource';
import { partnersResource } from '../modules/content/partners.resource';
import { giftCoinsResource } from '../modules/coins/giftCoins.resource';
import { missionsResource } from '../modules/missions/missions.resource';
import { userMissionsResource } from '../modules/missions/userMissions.resource';
import { stakingCoinsResource } from '../modules/staking/stakingCoins.resource';
import { withdrawsResource } from '../modules/withdrawals/withdraws.resource';
import { broadcastsResource } from '../modules/broadcasts/broadcasts.resource';
import { appealsResource, faqsResource } from '../modules/help/help.resource';
import { starOffersResource, starPurchasesResource } from '../modules/shop/shop.resource';
import { leagueStandingsResource, leagueWeeksResource } from '../modules/leagues/leagues.resource';
import { accountForToken } from '../modules/accounts/accounts.service';
import { recordAudit } from '../modules/audit/audit.service';
import type { ResourceDefinition } from '../http/resource';
import { configureConsole } from '../http/ports';
import { configureWithdrawalFigures } from '../modules/users/users.service';
import { withdrawalsInFlight } from '../modules/withdrawals/withdrawalFigures.service';
import { configureBooksCoins, configureBooksHotWallet } from '../modules/ledger/books.service';
import { countBalancesInCoin } from '../modules/ledger/ledger.service';
import { listCoins } from '../modules/coins/giftCoins.service';
import { plural, registerCoinUse } from '../modules/coins/giftCoinDeletion.service';
import { hotWalletHoldings } from '../modules/withdrawals/payouts.service';

// the console's kits (http/adminAuth.ts, http/resource.ts) check tokens and audit writes with these modules' functions
configureConsole({ accountForToken, recordAudit });
// a player's figures count their withdrawals in flight, read by the module that owns them
configureWithdrawalFigures(withdrawalsInFlight);
// the books set the hot wallet's holdings beside what is owed, read by the treasury (withdrawals import the ledger)
configureBooksHotWallet(hotWalletHoldings);
// the books list the coins, and a coin someone holds is not deleted: the ledger does not import the coins module, whose
// brakes' changes are decided by the engine (coins → accounts → ledger)
configureBooksCoins(() => listCoins({ symbol: 1 }, {}));
registerCoinUse({ order: 1, count: countBalancesInCoin, describe: (count) => plural(count, 'balance') });

/** Every console resource, each declared in its module. */
export const adminResources: ResourceDefinition[] = [
  // a player's gifts, corrections and claw-backs belong to those modules, on the player's resource
  { ...(usersResource as ResourceDefinition), ownDoors: playerMoneyDoors },
  userMissionsResource,
  missionsResource,
  categoriesResource,
  coversResource,
  partnersResource,
  giftCoinsResource,
  stakingCoinsResource,
  withdrawsResource,
  accountsResource,
  accountGrantsResource,
  appConfigResource,
  auditResource,
  ledgerEntriesResource,
  balancesResource,
  stakesResource,
  miningSessionsResource,
  broadcastsResource,
  giftsResource,
  faqsResource,
  appealsResource,
  starOffersResource,
  starPurchasesResource,
  leagueStandingsResource,
  leagueWeeksResource,
];
