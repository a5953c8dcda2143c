import { AUDIT_ACTIONS } from '@gift/shared';
import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

/** One operator write: who, when (createdAt), what, and the fields before and after. Never changed or deleted. */
const auditEntrySchema = applyConventions(
  new Schema(
    {
      account: ref('Account', { required: true }),
      /** The operator's username when they wrote, kept even if the account is renamed or deleted. */
      username: { type: String, required: true },
      /** One of AUDIT_ACTIONS, the closed list in shared. */
      action: { type: String, enum: AUDIT_ACTIONS, required: true },
      resource: { type: String, required: true },
      record: { type: String, required: true },
      /** The changed fields as they were (null for a create) and as they became (null for a delete). */
      before: { type: Schema.Types.Mixed, default: null },
      after: { type: Schema.Types.Mixed, default: null },
      note: { type: String, default: '' },
      /** Set when one write must be audited once however often it is retried (a gift: `adjust:<entryId>`). */
      key: { type: String },
    },
    schemaOptions,
  ),
);
// a record's history, newest first (and a player's timeline: auditHistory.service.ts)
auditEntrySchema.index({ resource: 1, record: 1, createdAt: -1, _id: -1 });
// the console's list: newest first, by each filter, and the search by operator or record
auditEntrySchema.index({ createdAt: -1, _id: -1 });
for (const filter of ['resource', 'record', 'account', 'action']) auditEntrySchema.index({ [filter]: 1, createdAt: -1, _id: -1 });
auditEntrySchema.index({ username: 1 });
auditEntrySchema.index({ key: 1 }, { partialFilterExpression: { key: { $type: 'string' } } });
export const AuditEntryModel = model('AuditEntry', auditEntrySchema);
