import type { ReactNode } from 'react';
import {
  CreateButton,
  ExportButton,
  FilterButton,
  SelectColumnsButton,
  TopToolbar,
  useFilterContext,
  useListContext,
  useResourceDefinition,
} from 'react-admin';
import { useIsSmall } from '../layout/useIsSmall';
import { useCsvExporter, type CsvColumn } from './csvExport';
import { EXPORT_COLUMNS } from './exportColumns';

/** The records an export fetches at most: react-admin's default, which the server's longest page (1000) answers whole. */
const EXPORT_LIMIT = 1000;

/**
 * Every list's actions, written once: its filters (with react-admin's saved views: "Save current query…" keeps the filters
 * and sort under a name, in this browser), the list's own buttons (`children`), Create where the resource has a form, the
 * column chooser of a wide table (`columns`: its preference key, as the table's `ResponsiveList columns`), and Export: a CSV of
 * the records under the list's filters and sort, in the columns of `EXPORT_COLUMNS[exportAs]` (or `csv`).
 */
export function ListActions({
  children,
  columns,
  exportAs,
  csv,
}: {
  children?: ReactNode;
  columns?: string;
  exportAs?: string;
  csv?: CsvColumn[];
}) {
  const { resource } = useListContext();
  const filters = useFilterContext();
  const { hasCreate } = useResourceDefinition();
  const isSmall = useIsSmall();
  const exporter = useCsvExporter(csv ?? EXPORT_COLUMNS[exportAs ?? resource] ?? [{ source: 'id' }], exportAs);
  return (
    <TopToolbar>
      {filters?.length ? <FilterButton /> : null}
      {children}
      {hasCreate && <CreateButton />}
      {columns && !isSmall && <SelectColumnsButton preferenceKey={columns} />}
      <ExportButton exporter={exporter} maxResults={EXPORT_LIMIT} />
    </TopToolbar>
  );
}
