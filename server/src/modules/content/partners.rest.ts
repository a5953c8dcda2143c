import type { ResourceDefinition } from '../../rest/resource';
import { PartnerModel } from './content.models';

/** STUB: read-only until its module's work lands. */
export const partnersResource: ResourceDefinition = { name: 'partners', model: PartnerModel };
