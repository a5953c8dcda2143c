import type { ResourceDefinition } from '../../http/resource';
import { AuditEntryModel } from './audit.model';
import type { AuditEntryRecord } from './audit.service';
import { withNames } from './auditNames';

/**
 * The audit trail: read-only, newest first; a record's history is this list filtered by resource and record, an operator's by
 * `account`, a period by `createdAt_gte` / `createdAt_lte` (each served by an index). Each entry carries the names of the
 * operators, players and records it mentions (`names`), read once per page.
 */
export const auditResource: ResourceDefinition = {
  name: 'audit',
  model: AuditEntryModel,
  list: {
    searchFields: ['username', 'record'],
    filters: { resource: 'equals', record: 'equals', account: 'objectId', action: 'equals' },
  },
  record: { presentPage: (entries) => withNames(entries as AuditEntryRecord[]) },
};
