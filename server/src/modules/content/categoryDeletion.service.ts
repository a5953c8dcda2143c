import { AppError } from '../../lib/errors';
import { countMissionsInCategory } from '../missions/missions.service';
import { CategoryModel } from './content.models';

/** Deletes a category that holds no mission, so no mission is left without one. */
export async function deleteCategory(id: string): Promise<void> {
  const missions = await countMissionsInCategory(id);
  if (missions) throw new AppError('IN_USE', { uses: `${missions} mission${missions === 1 ? '' : 's'}` });
  await CategoryModel.deleteOne({ _id: id });
}
