import type { ResourceDefinition } from '../../rest/resource';
import { CategoryModel } from './content.models';

/** STUB: read-only until its module's work lands. */
export const categoriesResource: ResourceDefinition = { name: 'categories', model: CategoryModel };
