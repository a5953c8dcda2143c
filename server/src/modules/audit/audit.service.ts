import type { AuditAction } from '@gift/shared';
import type { ConsoleRecord } from '../../db/schemaKit';
import { AuditEntryModel } from './audit.model';
import { upsertWithRetry } from '../../db/mongoErrors';

export interface Operator {
  id: string;
  username: string;
}

type Fields = Record<string, unknown> | null;

/**
 * Bookkeeping fields every record carries: they change with any write and say nothing about it. A record's `brakeState` is
 * a token of its waiting change and last decision, which the audit shows as they are.
 */
const IGNORED = new Set(['id', 'updatedAt', 'createdAt', 'brakeState']);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Only the fields a write changed, as they were and as they became. */
function changedFields(before: Fields, after: Fields): { before: Fields; after: Fields } {
  const meaningful = (fields: Fields) => fields && Object.fromEntries(Object.entries(fields).filter(([key]) => !IGNORED.has(key)));
  if (!before || !after) return { before: meaningful(before), after: meaningful(after) };
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (IGNORED.has(key) || same(before[key], after[key])) continue;
    was[key] = before[key] ?? null;
    now[key] = after[key] ?? null;
  }
  return { before: was, after: now };
}

/** JSON-safe copy (dates as strings, no ObjectIds) of what the console was shown. */
const plain = (fields: unknown): Fields => (fields ? (JSON.parse(JSON.stringify(fields)) as Record<string, unknown>) : null);

export interface AuditRecord {
  operator: Operator;
  action: AuditAction;
  resource: string;
  record: string;
  /** The record as the console showed it before the write (null for a create) and after (null for a delete). */
  before: unknown;
  after: unknown;
  note?: string;
  /** Audits the write once under this key, however often it is retried. */
  key?: string;
}

/** Records an operator's write; an update that changed nothing is still recorded, since someone pressed Save. */
/** GET /api/admin/audit: one operator write as the console's audit log shows it. */
export type AuditEntryRecord = Omit<ConsoleRecord<typeof AuditEntryModel>, 'before' | 'after'> & {
  /** The changed fields as they were and as they became (stored as Mixed, so typed here). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The names of the records the entry mentions, by id (the record itself, and ids in its changed fields); lists only. */
  names?: Record<string, string>;
};

export async function recordAudit(entry: AuditRecord): Promise<void> {
  const { before, after } = changedFields(plain(entry.before), plain(entry.after));
  const fields = {
    account: entry.operator.id,
    username: entry.operator.username,
    action: entry.action,
    resource: entry.resource,
    record: entry.record,
    before,
    after,
    note: entry.note ?? '',
  };
  // a repeat and the sweep auditing one key at once: on MongoDB the second insert is refused, and its retry finds the first
  if (entry.key)
    await upsertWithRetry(() =>
      AuditEntryModel.updateOne({ key: entry.key }, { $setOnInsert: { ...fields, key: entry.key } }, { upsert: true }),
    );
  else await AuditEntryModel.create(fields);
}

/** Whether a keyed write has been audited. */
export async function isAudited(key: string): Promise<boolean> {
  return !!(await AuditEntryModel.exists({ key }));
}
