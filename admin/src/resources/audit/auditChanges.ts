import type { AuditEntryRecord } from '@gift/server';
import type { TranslateFunction } from 'react-admin';
import { formatWhen } from '../../lists/ConsoleDateField';

/** One changed field as an operator reads it: its label, and what it was and became ('' where there was no side). */
interface ChangeLine {
  field: string;
  label: string;
  before: string;
  after: string;
}

/** How values are written: dates in the console's language (`locales`, Solar Hijri in Persian) or as ISO 8601 (a CSV). */
interface Writing {
  translate: TranslateFunction;
  locales: string | undefined;
  isoDates?: boolean;
}

/** The words of a status field, by the resource it belongs to. */
const STATUS_WORDS: Record<string, string> = {
  withdraws: 'statuses.withdrawal',
  'user-missions': 'statuses.progress',
  users: 'players.status',
  broadcasts: 'broadcasts.statuses',
  gifts: 'gifts.statuses',
  'account-grants': 'accountGrants.statuses',
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const AMOUNT = /^[-+]?\d+(\.\d+)?$/;
const isPlainObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

const persianDigits = (text: string) => text.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!).replace('.', '٫');
const humanize = (field: string) => field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

/**
 * A changed field's label: the resource's own label for it (`resources.withdraws.fields.approvedBy`), else the audit's
 * (`audit.fields.…`, one per part of a nested field: "Persian · Title"), else the field's name in words.
 */
function labelOf(resource: string, path: string, translate: TranslateFunction): string {
  const generic = path
    .split('.')
    .map((part) => translate(`audit.fields.${part}`, { _: humanize(part) }))
    .join(translate('common.separator'));
  return translate(`resources.${resource}.fields.${path}`, { _: generic });
}

/** A value as the operator reads it: a name for an id, a word for a status or a yes/no, a date, an exact amount. */
function written(value: unknown, field: string, entry: AuditEntryRecord, writing: Writing): string {
  const { translate, locales, isoDates } = writing;
  const persian = locales === 'fa-IR';
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  if (typeof value === 'number') return value.toLocaleString(persian ? 'fa-IR' : 'en-US');
  if (Array.isArray(value)) return value.length ? value.map((item) => written(item, field, entry, writing)).join(', ') : '—';
  if (typeof value !== 'string') return JSON.stringify(value);
  const name = entry.names?.[value];
  if (name) return name;
  if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)))
    return isoDates ? new Date(value).toISOString() : formatWhen(value, locales);
  const last = field.split('.').pop()!;
  const words = last === 'status' ? STATUS_WORDS[entry.resource] : undefined;
  if (words) return translate(`${words}.${value}`, { _: value });
  if (AMOUNT.test(value) && persian) return persianDigits(value);
  return value;
}

/** A record's fields flattened to their leaves (`fa.title`); a list stays one value. */
function leaves(value: unknown, prefix: string, into: Map<string, unknown>): void {
  if (isPlainObject(value) && Object.keys(value).length)
    for (const [key, inner] of Object.entries(value)) leaves(inner, prefix ? `${prefix}.${key}` : key, into);
  else if (prefix) into.set(prefix, value);
}

/**
 * The fields an entry changed, one line each: a nested field (the Persian texts `fa`) by the parts that changed, not the whole
 * object; ids as the names the server sent with the entry; statuses, yes/no, dates and amounts in words and numbers.
 */
export function changeLines(entry: AuditEntryRecord, writing: Writing): ChangeLine[] {
  const before = new Map<string, unknown>();
  const after = new Map<string, unknown>();
  leaves(entry.before ?? {}, '', before);
  leaves(entry.after ?? {}, '', after);
  const fields = [...new Set([...before.keys(), ...after.keys()])].filter(
    (field) => !entry.before || !entry.after || JSON.stringify(before.get(field) ?? null) !== JSON.stringify(after.get(field) ?? null),
  );
  return fields.map((field) => ({
    field,
    label: labelOf(entry.resource, field, writing.translate),
    before: entry.before ? written(before.get(field), field, entry, writing) : '',
    after: entry.after ? written(after.get(field), field, entry, writing) : '',
  }));
}

/** A change line as one line of text: "Status: Pending → Approved". */
export const changeText = ({ label, before, after }: ChangeLine) => `${label}: ${[before, after].filter(Boolean).join(' → ')}`;

/** The resource an entry is about, as the menu names it. */
export const resourceName = (resource: string, translate: TranslateFunction) =>
  translate(`resources.${resource}.name`, { smart_count: 1, _: resource });
