import type { ReactElement, ReactNode } from 'react';
import {
  Pagination,
  ReferenceField,
  ReferenceManyField,
  TextField,
  useTranslate,
  type RaRecord,
  type TranslateFunction,
} from 'react-admin';
import { Box } from '@mui/material';
import { formatWhen, useDateLocales } from '../../../lists/ConsoleDateField';
import { ResponsiveList } from '../../../lists/ResponsiveList';

/** A tab's content: `label={false}` keeps the tab from labelling it as if it were one field. */
export interface TabContentProps {
  label?: false;
}

/** A row of one of the player's record lists, read loosely: only strings and numbers print. */
export interface Row {
  id: string;
  [field: string]: unknown;
}

export const signed = (amount: string) => (amount.startsWith('-') ? amount : `+${amount}`);
/** A row's field as text: rows are read as unknown, so only strings and numbers print. */
export const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

export const CoinSymbol = () => (
  <ReferenceField source="coin" reference="gift-coins" link={false}>
    <TextField source="symbol" />
  </ReferenceField>
);

/** An amount followed by the symbol of the row's coin, for a phone's list line. */
export const CoinAmount = ({ amount }: { amount: string }) => (
  <span>
    {amount} <CoinSymbol />
  </span>
);

function NoneYet() {
  const translate = useTranslate();
  return <Box sx={{ p: 2 }}>{translate('common.noneYet')}</Box>;
}

/** What a phone's line is written with: the console's words, and a row's date in its language (or a dash). */
interface Words {
  translate: TranslateFunction;
  day: (value: unknown) => string;
}
type Line<R> = (record: R, words: Words) => ReactNode;

/**
 * One of the player's record lists, paged, newest first; each row opens its record (`link`). A desktop shows the columns in
 * `children`; a phone shows one list item per row, with the three lines given.
 */
export function PlayerRecords<R extends RaRecord = Row>({
  reference,
  target = 'user',
  link,
  children,
  primary,
  secondary,
  tertiary,
  expand,
}: {
  /** What a row opens below itself on a desktop (a friend's own friends). */
  expand?: ReactElement;
  reference: string;
  target?: string;
  link: 'edit' | 'show' | false;
  children: ReactNode;
  primary: Line<R>;
  secondary: Line<R>;
  tertiary: Line<R>;
}) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const words: Words = { translate, day: (value) => (value ? formatWhen(text(value), locales) : '—') };
  return (
    <ReferenceManyField
      reference={reference}
      target={target}
      perPage={10}
      sort={{ field: 'createdAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
    >
      <ResponsiveList<R>
        rowClick={link}
        expand={expand}
        empty={<NoneYet />}
        phone={{
          primaryText: (record) => primary(record, words),
          secondaryText: (record) => secondary(record, words),
          tertiaryText: (record) => tertiary(record, words),
        }}
      >
        {children}
      </ResponsiveList>
    </ReferenceManyField>
  );
}
