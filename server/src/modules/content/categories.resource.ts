import { categoryInput } from '@gift/shared';
import { orderedResource } from '../../http/resource';
import { deleteCategory } from './categoryDeletion.service';
import { CategoryModel } from './content.models';

/** Categories hold missions; one that still holds any cannot be deleted, so no mission is left without one. */
export const categoriesResource = orderedResource('categories', CategoryModel, categoryInput, {
  search: ['title'],
  remove: { run: deleteCategory },
});
