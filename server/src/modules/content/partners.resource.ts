import { partnerInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { PartnerModel } from './content.models';

/** Partners shown on the home screen. */
export const partnersResource: ResourceDefinition<typeof partnerInput> = {
  name: 'partners',
  model: PartnerModel,
  create: { schema: partnerInput },
  update: { schema: partnerInput },
  remove: {},
  list: {
    searchFields: ['name'],
    substringSearch: true,
    filters: { enabled: 'boolean' },
    sortable: ['order', 'name', 'enabled'],
  },
};
