import type { ResourceDefinition } from '../../http/resource';
import { LedgerEntryModel } from './ledger.models';
import { presentLedgerEntry } from './ledger.service';

/** Every posted ledger entry, filtered by player on the player's page; the operator who made it is named. */
export const ledgerEntriesResource: ResourceDefinition = {
  name: 'ledger-entries',
  permission: 'users',
  model: LedgerEntryModel,
  scope: { state: 'posted' },
  list: {
    searchFields: ['idempotencyKey', 'refId'],
    filters: { user: 'objectId', coin: 'objectId', reason: 'equals', refType: 'equals', refId: 'equals' },
    sortable: ['amount', 'reason'],
  },
  record: { populate: [{ path: 'createdBy', select: 'username' }], present: presentLedgerEntry },
};
