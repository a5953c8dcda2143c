import type { ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage';
import { Skeleton } from './Skeleton';

/** A list a query answers: `rows` grey rows while it loads, its error, `empty` when it has nothing, else each item's <li>. */
export function QueryList<T>({
  query,
  rows,
  empty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data?: readonly T[] };
  rows: number;
  empty?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      {query.isPending && <Skeleton rows={rows} />}
      {!!query.error && <ErrorMessage error={query.error} />}
      {query.data?.length === 0 && empty && <p className="muted">{empty}</p>}
      {!!query.data?.length && <ul className="list">{query.data.map(children)}</ul>}
    </>
  );
}
