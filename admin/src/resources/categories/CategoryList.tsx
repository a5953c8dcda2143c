import type { CategoryRecord } from '@gift/server';
import { BooleanField, ImageField, List, NumberField, TextField } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { BY_ORDER, ResponsiveList, searchFilter, useOrderLine } from '../../lists/ResponsiveList';
import { TranslationField } from '../../forms/BilingualInput';
import { ListActions } from '../../lists/ListActions';

export function CategoryList() {
  const orderLine = useOrderLine();
  return (
    <List sort={BY_ORDER} filters={[searchFilter()]} actions={<ListActions />}>
      <ResponsiveList<CategoryRecord> phone={{ primaryText: (r) => r.title, secondaryText: orderLine }}>
        <ImageField source="image" sx={{ '& img': { maxWidth: 40, maxHeight: 40, objectFit: 'cover' } }} sortable={false} />
        <TextField source="title" />
        <TranslationField fields={['title', 'description']} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <ConsoleDateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
