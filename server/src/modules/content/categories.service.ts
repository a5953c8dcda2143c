import { isValidObjectId } from 'mongoose';
import { objectId, type Id } from '../../db/ids';
import { CategoryModel } from './content.models';

export function findEnabledCategory(id: Id) {
  return CategoryModel.findOne({ _id: objectId(id), enabled: true }).lean();
}

export async function categoryExists(id: string): Promise<boolean> {
  return isValidObjectId(id) && !!(await CategoryModel.exists({ _id: id }));
}
