import { accountsResource } from '../modules/accounts/accounts.resource';
import { appConfigResource } from '../modules/config/appConfig.rest';
import { usersResource } from '../modules/users/users.rest';
import { ledgerEntriesResource } from '../modules/ledger/ledgerEntries.rest';
import { miningSessionsResource } from '../modules/mining/miningSessions.rest';
import { stakesResource } from '../modules/staking/stakes.rest';
import { auditResource } from '../modules/audit/audit.rest';
import { categoriesResource } from '../modules/content/categories.rest';
import { coversResource } from '../modules/content/covers.rest';
import { partnersResource } from '../modules/content/partners.rest';
import { giftCoinsResource } from '../modules/coins/giftCoins.rest';
import { missionsResource } from '../modules/missions/missions.rest';
import { userMissionsResource } from '../modules/missions/userMissions.rest';
import { stakingCoinsResource } from '../modules/staking/stakingCoins.rest';
import { withdrawsResource } from '../modules/withdrawals/withdraws.rest';
import type { ResourceDefinition } from './resource';

/** Every console resource, each declared in its module. */
export const adminResources: ResourceDefinition[] = [
  usersResource,
  userMissionsResource,
  missionsResource,
  categoriesResource,
  coversResource,
  partnersResource,
  giftCoinsResource,
  stakingCoinsResource,
  withdrawsResource,
  accountsResource,
  appConfigResource,
  auditResource,
  ledgerEntriesResource,
  stakesResource,
  miningSessionsResource,
];
