import { CloneButton, useGetList, useRecordContext, useResourceContext } from 'react-admin';

/** How a copy's title is marked in each language the players read (the record's texts, whatever the console's language). */
const COPY_WORD = { en: 'copy', fa: 'کپی' };
const mark = (word: string, n: string | null) => ` (${word}${n === null ? '' : ` ${n}`})`;
const COPY_MARK = {
  en: (n: number) => mark(COPY_WORD.en, n === 1 ? null : String(n)),
  fa: (n: number) => mark(COPY_WORD.fa, n === 1 ? null : n.toLocaleString('fa-IR', { useGrouping: false })),
};
const EARLIER_MARK = / \((?:copy|کپی)(?: [0-9۰-۹]+)?\)$/;

/** A copy's title: the title without an earlier copy's mark, marked as the first copy whose title no record in `taken` has. */
export function copyTitle(title: string, language: keyof typeof COPY_MARK, taken: ReadonlySet<string>): string {
  if (!title.trim()) return title;
  const base = title.replace(EARLIER_MARK, '');
  for (let n = 1; ; n++) {
    const candidate = `${base}${COPY_MARK[language](n)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

interface Titled {
  id: string;
  title?: string;
  fa?: { title?: string };
}

/**
 * Clone that opens the new record with this one's fields and its title marked as a copy, in English and in Persian, never
 * a title another record of the list already has (the titles are looked up by the list's search). It is off until that
 * search has answered: pressed before, it would mark the copy without knowing the copies already made.
 */
export function CloneAsCopyButton() {
  const record = useRecordContext<Titled>();
  const resource = useResourceContext();
  const base = (record?.title ?? '').replace(EARLIER_MARK, '');
  const searched = !!record && base.trim() !== '';
  const { data: similar = [], isPending } = useGetList<Titled>(
    resource!,
    { filter: { q: base }, pagination: { page: 1, perPage: 100 }, sort: { field: 'title', order: 'ASC' } },
    { enabled: searched },
  );
  if (!record) return null;
  const taken = (read: (other: Titled) => string | undefined) => new Set(similar.map(read).filter((title): title is string => !!title));
  const copy = {
    ...record,
    title: copyTitle(
      record.title ?? '',
      'en',
      taken((other) => other.title),
    ),
    fa: {
      ...record.fa,
      title: copyTitle(
        record.fa?.title ?? '',
        'fa',
        taken((other) => other.fa?.title),
      ),
    },
  };
  return <CloneButton record={copy} disabled={searched && isPending} />;
}
