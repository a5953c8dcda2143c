import { useMemo } from 'react';
import { downloadCSV, useTranslate, type Exporter, type RaRecord, type TranslateFunction } from 'react-admin';

type Cell = string | number | boolean | null | undefined;

/** What a column's cell may read besides its record: the console's words, and the records its references name. */
interface CellTools {
  translate: TranslateFunction;
  /** The record of another resource a reference column fetched (once for the whole export). */
  related: (resource: string, id: unknown) => RaRecord | undefined;
}

/**
 * One column of a list's CSV: a field of its records (`source`, a dotted path) headed by the list's own label for it
 * (`resources.<resource>.fields.<source>`, or `label`). Its cell is the field as the list shows it: an id of another resource
 * as that record's name (`reference: ['users', 'name']`), a status as its word (`words: 'statuses.withdrawal'`), or `value`.
 */
export interface CsvColumn<R = RaRecord> {
  source: string;
  label?: string;
  reference?: readonly [resource: string, field: string];
  words?: string;
  // a method, so a list's columns of its own record type pass where any record's are asked for
  value?(record: R, tools: CellTools): Cell;
}

const read = (record: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);

/** A field written for a person: booleans as words, lists joined, amounts and ISO dates exactly as the server wrote them. */
function written(value: unknown, translate: TranslateFunction): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
  if (Array.isArray(value)) return value.map((item) => written(item, translate)).join('; ');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A text a spreadsheet would run as a formula
 * (a player's name `=HYPERLINK(…)`) starts with an apostrophe; a negative amount stays a number.
 */
function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV text of rows under a header; a byte-order mark first, so a spreadsheet reads Persian as UTF-8. */
function csvText(header: string[], rows: string[][]): string {
  return `\ufeff${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/**
 * react-admin's exporter for a list: the records its Export button fetched (the list's filters and sort, up to 1000) as a CSV
 * of `columns`, in the console's language, downloaded as `<filename or resource>.csv`. Each reference column's records are
 * fetched once for the whole export (react-admin's `fetchRelatedRecords`: one getMany per column).
 */
export function useCsvExporter<R extends RaRecord>(columns: CsvColumn<R>[], filename?: string): Exporter<R> {
  const translate = useTranslate();
  return useMemo<Exporter<R>>(
    () => async (records, fetchRelatedRecords, _dataProvider, resource) => {
      const fetched = new Map<string, Record<string, RaRecord>>();
      for (const { source, reference } of columns) {
        if (!reference || fetched.has(reference[0])) continue;
        // a reference the account may not look up is written as its id
        fetched.set(reference[0], await fetchRelatedRecords<RaRecord>(records, source, reference[0]).catch(() => ({})));
      }
      const tools: CellTools = { translate, related: (name, id) => fetched.get(name)?.[String(id)] };
      const cell = (record: R, column: CsvColumn<R>): string => {
        const { source, reference, words } = column;
        if (column.value) return written(column.value(record, tools), translate);
        const raw = read(record, source);
        if (reference && raw) return written(read(tools.related(reference[0], raw), reference[1]) ?? raw, translate);
        if (words && typeof raw === 'string' && raw) return translate(`${words}.${raw}`, { _: raw });
        return written(raw, translate);
      };
      const header = columns.map(({ source, label }) => translate(label ?? `resources.${resource}.fields.${source}`, { _: source }));
      downloadCSV(
        csvText(
          header,
          records.map((record) => columns.map((column) => cell(record, column))),
        ),
        filename ?? resource,
      );
    },
    [columns, filename, translate],
  );
}
