import type { ReactNode } from 'react';
import { Datagrid, Pagination, ReferenceField, ReferenceManyField, TextField, useTranslate } from 'react-admin';
import { Box } from '@mui/material';
import { useIsSmall } from '../../../layout/useIsSmall';

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
export const day = (value: unknown) => (value ? new Date(text(value)).toLocaleString() : '—');

export const CoinSymbol = () => (
  <ReferenceField source="coin" reference="gift-coins" link={false}>
    <TextField source="symbol" />
  </ReferenceField>
);

function NoneYet() {
  const translate = useTranslate();
  return <Box sx={{ p: 2 }}>{translate('common.noneYet')}</Box>;
}

/** One of the player's record lists, paged, newest first; each row opens its record. A phone shows `simple` instead. */
export function PlayerRecords({
  reference,
  target = 'user',
  link,
  children,
  simple,
}: {
  reference: string;
  target?: string;
  link: 'edit' | 'show' | false;
  children: ReactNode;
  simple: ReactNode;
}) {
  const isSmall = useIsSmall();
  return (
    <ReferenceManyField
      reference={reference}
      target={target}
      perPage={10}
      sort={{ field: 'createdAt', order: 'DESC' }}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
    >
      {isSmall ? (
        simple
      ) : (
        <Datagrid rowClick={link} bulkActionButtons={false} empty={<NoneYet />}>
          {children}
        </Datagrid>
      )}
    </ReferenceManyField>
  );
}
