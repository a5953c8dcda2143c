import type { Types } from 'mongoose';
import type { ConsoleRecord, NewRecord } from '../../db/schemaKit';
import { CategoryModel, CoverModel, PartnerModel } from './content.models';

export interface ContentRow {
  _id: Types.ObjectId;
  kind: 'cover' | 'partner' | 'category';
  title?: string;
  name?: string;
  description?: string;
  image?: string;
  link?: string;
  fa?: { title?: string; name?: string; description?: string };
}

const enabledOf = (kind: ContentRow['kind']) => [{ $match: { enabled: true } }, { $addFields: { kind } }];

/** Covers, partners and categories in one query: the two small collections are unioned onto the covers. */
export function homeContent(): Promise<ContentRow[]> {
  return CoverModel.aggregate<ContentRow>([
    ...enabledOf('cover'),
    { $unionWith: { coll: PartnerModel.collection.name, pipeline: enabledOf('partner') } },
    { $unionWith: { coll: CategoryModel.collection.name, pipeline: enabledOf('category') } },
    { $sort: { order: 1, _id: 1 } },
    { $project: { kind: 1, title: 1, name: 1, description: 1, image: 1, link: 1, fa: 1 } },
  ]);
}

/** Inserts categories, covers and partners as given (the demo seed; operators create them through the console). */
/** The console's records of the home screen's content (GET /api/admin/categories, /covers, /partners). */
export type CategoryRecord = ConsoleRecord<typeof CategoryModel>;
export type CoverRecord = ConsoleRecord<typeof CoverModel>;
export type PartnerRecord = ConsoleRecord<typeof PartnerModel>;

export const insertCategories = (records: NewRecord<typeof CategoryModel>[]) => CategoryModel.insertMany(records);
export const insertCovers = (records: NewRecord<typeof CoverModel>[]) => CoverModel.insertMany(records);
export const insertPartners = (records: NewRecord<typeof PartnerModel>[]) => PartnerModel.insertMany(records);
