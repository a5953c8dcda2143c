import type { ReactElement, ReactNode } from 'react';
import { Datagrid, DatagridConfigurable, SearchInput, SimpleList, useTranslate, type RaRecord, type SimpleListProps } from 'react-admin';
import { useIsSmall } from '../layout/useIsSmall';

type PhoneLines<R extends RaRecord> = Pick<SimpleListProps<R>, 'leftAvatar' | 'primaryText' | 'secondaryText' | 'tertiaryText'>;

/**
 * The records of a list as the demo draws them: a table of the `children` columns on a desktop, one line per record on a phone
 * (`phone`). A row opens its record (`rowClick`); tables select rows only where `bulkActionButtons` are given. With `columns` (a
 * preference key, the same as its `ListActions columns`), the operator chooses the table's columns (react-admin's
 * DatagridConfigurable, kept in this browser).
 */
export function ResponsiveList<R extends RaRecord>({
  phone,
  children,
  rowClick = 'edit',
  bulkActionButtons = false,
  empty,
  expand,
  isRowSelectable,
  columns,
}: {
  expand?: ReactElement;
  columns?: string;
  /** Rows a bulk action may select (others show no checkbox); all by default. */
  isRowSelectable?: (record: R) => boolean;
  phone: PhoneLines<R>;
  children: ReactNode;
  rowClick?: 'edit' | 'show' | false;
  bulkActionButtons?: ReactElement | false;
  empty?: ReactElement;
}) {
  const isSmall = useIsSmall();
  const table = { rowClick, bulkActionButtons, empty, expand, isRowSelectable, children };
  return isSmall ? (
    <SimpleList<R> {...phone} linkType={rowClick} />
  ) : columns ? (
    <DatagridConfigurable preferenceKey={columns} {...table} />
  ) : (
    <Datagrid {...table} />
  );
}

/** A list's search box, kept open; `placeholder` is an i18n key (the list's filter form reads `source` and `alwaysOn`). */
function SearchBox({ placeholder }: { source: 'q'; alwaysOn: true; placeholder?: string }) {
  const translate = useTranslate();
  return <SearchInput source="q" placeholder={placeholder && translate(placeholder)} />;
}

export const searchFilter = (placeholder?: string) => <SearchBox key="q" source="q" alwaysOn placeholder={placeholder} />;

/** Records the operator orders by hand (content, coins, offers) list in that order. */
export const BY_ORDER = { field: 'order', order: 'ASC' } as const;

/** A phone's line for an ordered record: its place, and whether players see it. */
export function useOrderLine() {
  const translate = useTranslate();
  return (r: { order: number; enabled: boolean }) =>
    [translate('common.orderLine', { order: r.order }), r.enabled ? '' : translate('common.disabled')]
      .filter(Boolean)
      .join(translate('common.separator'));
}
