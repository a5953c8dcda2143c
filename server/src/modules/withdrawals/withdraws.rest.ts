import type { ResourceDefinition } from '../../rest/resource';
import { WithdrawalModel } from './withdrawal.model';

/** STUB: read-only until its module's work lands. */
export const withdrawsResource: ResourceDefinition = { name: 'withdraws', model: WithdrawalModel };
