import { coverInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { CoverModel } from './content.models';

/** Banners on the home screen. */
export const coversResource: ResourceDefinition<typeof coverInput> = {
  name: 'covers',
  model: CoverModel,
  create: { schema: coverInput },
  update: { schema: coverInput },
  remove: {},
  list: {
    searchFields: ['title'],
    substringSearch: true,
    filters: { enabled: 'boolean' },
    sortable: ['order', 'title', 'enabled'],
  },
};
