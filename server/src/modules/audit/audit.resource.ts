import type { ResourceDefinition } from '../../http/resource';
import { AuditEntryModel } from './audit.model';

/** The audit trail: read-only, newest first; a record's history is this list filtered by resource and record. */
export const auditResource: ResourceDefinition = {
  name: 'audit',
  model: AuditEntryModel,
  list: {
    searchFields: ['username', 'record'],
    filters: { resource: 'equals', record: 'equals', account: 'objectId', action: 'equals' },
  },
};
