import { model, Schema, type InferSchemaType } from 'mongoose';
import { applyConventions, schemaOptions } from '../../db/schemaKit';

/** An operator of the console. */
const accountSchema = applyConventions(new Schema({
  username: { type: String, required: true, trim: true },
  passwordHash: { type: String, required: true, select: false, hidden: true },
  /** '*' or '<resource>:read' / '<resource>:write'. */
  permissions: { type: [String], default: [] },
  enabled: { type: Boolean, default: true },
  lastLoginAt: { type: Date, default: null },
}, schemaOptions));
accountSchema.index({ username: 1 }, { unique: true });

export type Account = InferSchemaType<typeof accountSchema>;
export const AccountModel = model('Account', accountSchema);
