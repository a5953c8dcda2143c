import { accountCreateInput, accountUpdateInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { AccountModel } from './account.model';
import { createAccount, deleteAccount, updateAccount } from './accounts.service';

/** Operators' accounts: the password goes in, only ever as a hash, and never comes out. */
export const accountsResource: ResourceDefinition<typeof accountCreateInput, typeof accountUpdateInput> = {
  name: 'accounts',
  model: AccountModel,
  createSchema: accountCreateInput,
  updateSchema: accountUpdateInput,
  searchFields: ['username'],
  substringSearch: true,
  filters: { enabled: 'boolean' },
  sortable: ['username', 'lastLoginAt', 'enabled'],
  canDelete: true,
  create: (input, req) => createAccount(input, req.account!),
  update: (id, input, req) => updateAccount(id, input, { actor: req.account!, logger: req.log }),
  remove: (id, req) => deleteAccount(id, req.account!),
};
