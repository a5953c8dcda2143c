import type { ResourceDefinition } from '../../rest/resource';
import { UserModel } from './user.model';

/** STUB: read-only until its module's work lands. */
export const usersResource: ResourceDefinition = { name: 'users', model: UserModel };
