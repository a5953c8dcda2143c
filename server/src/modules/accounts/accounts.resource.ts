import { accountCreateInput, accountUpdateInput } from '@gift/shared';
import type { ResourceDefinition } from '../../http/resource';
import { AccountModel } from './account.model';
import { createAccount, deleteAccount, updateAccount } from './accounts.service';

/** Operators' accounts: the password goes in, only ever as a hash, and never comes out. */
export const accountsResource: ResourceDefinition<typeof accountCreateInput, typeof accountUpdateInput> = {
  name: 'accounts',
  model: AccountModel,
  list: {
    searchFields: ['username'],
    substringSearch: true,
    filters: { enabled: 'boolean' },
    sortable: ['username', 'lastLoginAt', 'enabled'],
  },
  create: { schema: accountCreateInput, run: (input, { operator }) => createAccount(input, operator) },
  update: { schema: accountUpdateInput, run: (id, input, { operator, log }) => updateAccount(id, input, { actor: operator, logger: log }) },
  remove: { run: (id, { operator }) => deleteAccount(id, operator) },
};
