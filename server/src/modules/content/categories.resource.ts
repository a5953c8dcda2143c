import { categoryInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { deleteCategory } from './categoryDeletion.service';
import { CategoryModel } from './content.models';

/** Categories hold missions; one that still holds any cannot be deleted, so no mission is left without one. */
export const categoriesResource: ResourceDefinition<typeof categoryInput> = {
  name: 'categories',
  model: CategoryModel,
  create: { schema: categoryInput },
  update: { schema: categoryInput },
  remove: { run: deleteCategory },
  list: {
    searchFields: ['title'],
    substringSearch: true,
    filters: { enabled: 'boolean' },
    sortable: ['order', 'title', 'enabled'],
  },
};
