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
  fa?: { title?: string; name?: string; description?: string; image?: string };
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

/** The cover home shows first (the lowest order, as `homeContent` sorts), as the page's shell shows it before the app runs. */
export interface FirstCover {
  image: string;
  title: string;
  link: string;
}

export async function firstCover(): Promise<FirstCover | null> {
  const cover = await CoverModel.findOne({ enabled: true }, { title: 1, image: 1, link: 1 }).sort({ order: 1, _id: 1 }).lean();
  return cover?.image ? { image: cover.image, title: cover.title ?? '', link: cover.link ?? '' } : null;
}

/** Inserts categories, covers and partners as given (the demo seed; operators create them through the console). */
/** The console's records of the home screen's content (GET /api/admin/categories, /covers, /partners). */
export type CategoryRecord = ConsoleRecord<typeof CategoryModel>;
export type CoverRecord = ConsoleRecord<typeof CoverModel>;
export type PartnerRecord = ConsoleRecord<typeof PartnerModel>;

export const insertCategories = (records: NewRecord<typeof CategoryModel>[]) => CategoryModel.insertMany(records);
export const insertCovers = (records: NewRecord<typeof CoverModel>[]) => CoverModel.insertMany(records);
export const insertPartners = (records: NewRecord<typeof PartnerModel>[]) => PartnerModel.insertMany(records);
