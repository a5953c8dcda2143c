import { AppError } from '../../lib/errors';
import { CategoryModel } from './content.models';

/** How many missions a category holds: registered by the missions module, which content does not import. */
let countMissionsInCategory: (categoryId: string) => Promise<number> = () =>
  Promise.reject(new Error('the missions module has not registered its category check'));

export function registerCategoryUse(count: (categoryId: string) => Promise<number>): void {
  countMissionsInCategory = count;
}

/** Deletes a category that holds no mission, so no mission is left without one. */
export async function deleteCategory(id: string): Promise<void> {
  const missions = await countMissionsInCategory(id);
  if (missions) throw new AppError('IN_USE', { uses: `${missions} mission${missions === 1 ? '' : 's'}` });
  await CategoryModel.deleteOne({ _id: id });
}
