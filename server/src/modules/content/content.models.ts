import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions } from '../../db/schemaKit';

const categorySchema = applyConventions(
  new Schema(
    {
      title: { type: String, required: true },
      description: { type: String, default: '' },
      /** What Persian players read; a blank text falls back to the English. */
      fa: { title: { type: String, default: '' }, description: { type: String, default: '' } },
      image: { type: String, default: '' },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
    },
    schemaOptions,
  ),
);
categorySchema.index({ enabled: 1, order: 1 });
export const CategoryModel = model('Category', categorySchema);

/** A banner on the home screen. */
const coverSchema = applyConventions(
  new Schema(
    {
      title: { type: String, default: '' },
      fa: { title: { type: String, default: '' }, image: { type: String, default: '' } },
      image: { type: String, required: true },
      link: { type: String, default: '' },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
    },
    schemaOptions,
  ),
);
coverSchema.index({ enabled: 1, order: 1 });
export const CoverModel = model('Cover', coverSchema);

const partnerSchema = applyConventions(
  new Schema(
    {
      name: { type: String, required: true },
      fa: { name: { type: String, default: '' } },
      image: { type: String, required: true },
      link: { type: String, default: '' },
      order: { type: Number, default: 0 },
      enabled: { type: Boolean, default: true },
    },
    schemaOptions,
  ),
);
partnerSchema.index({ enabled: 1, order: 1 });
export const PartnerModel = model('Partner', partnerSchema);
