import type { TimeSlice } from '../../db/timePage';
import { AuditEntryModel } from './audit.model';

/**
 * One page of what operators did to one record (a player: `users`), newest first: served by (resource, record, createdAt, _id).
 * `statusChanges` true keeps only the writes that changed its status, false only the others, absent both; `without` leaves out
 * the writes that set this field (a note on a player, which the timeline shows as itself).
 */
export async function auditMomentsOf(resource: string, record: string, slice: TimeSlice, statusChanges?: boolean, without?: string) {
  const status = statusChanges === undefined ? {} : { 'after.status': { $exists: statusChanges } };
  const hidden = without ? { [`after.${without}`]: { $exists: false } } : {};
  const rows = await AuditEntryModel.find(
    { resource, record, ...slice.filter, ...status, ...hidden },
    { username: 1, action: 1, before: 1, after: 1, note: 1, createdAt: 1 },
  )
    .sort(slice.sort)
    .limit(slice.limit)
    .lean();
  return rows.map((row) => {
    const after = (row.after ?? {}) as Record<string, unknown>;
    const before = (row.before ?? {}) as Record<string, unknown>;
    return {
      id: String(row._id),
      at: row.createdAt,
      operator: row.username,
      action: row.action,
      /** The fields the write changed. */
      fields: Object.keys({ ...before, ...after }),
      status: typeof after.status === 'string' ? after.status : null,
      reason: typeof after.statusReason === 'string' ? after.statusReason : row.note,
    };
  });
}
