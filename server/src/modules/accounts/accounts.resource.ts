import type { ResourceDefinition } from '../../rest/resource';
import { AccountModel } from './account.model';

/** STUB: read-only until its module's work lands. */
export const accountsResource: ResourceDefinition = { name: 'accounts', model: AccountModel };
