import type { ResourceDefinition } from '../../http/resource';
import { BalanceModel } from './ledger.models';

/** Players' balances, read-only: filtered by coin and sorted by amount, the console's players by their balance of a coin. */
export const balancesResource: ResourceDefinition = {
  name: 'balances',
  permission: 'users',
  model: BalanceModel,
  list: { filters: { coin: 'objectId' }, sortable: ['amount'] },
};
