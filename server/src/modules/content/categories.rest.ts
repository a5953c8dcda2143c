import { categoryInput } from '@gift/shared';
import { AppError } from '../../lib/errors';
import type { ResourceDefinition } from '../../rest/resource';
import { MissionModel } from '../missions/mission.models';
import { CategoryModel } from './content.models';

/** Categories hold missions; one that still holds any cannot be deleted, so no mission is left without one. */
export const categoriesResource: ResourceDefinition<typeof categoryInput> = {
  name: 'categories',
  model: CategoryModel,
  createSchema: categoryInput,
  searchFields: ['title'],
  filters: { enabled: 'boolean' },
  sortable: ['order', 'title'],
  canDelete: true,
  remove: async (id) => {
    const missions = await MissionModel.countDocuments({ category: id });
    if (missions) throw new AppError('IN_USE', { uses: `${missions} mission${missions === 1 ? '' : 's'}` });
    await CategoryModel.deleteOne({ _id: id });
  },
};
