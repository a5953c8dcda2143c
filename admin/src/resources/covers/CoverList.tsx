import type { CoverRecord } from '@gift/server';
import { BooleanField, DateField, ImageField, List, NumberField, TextField, UrlField } from 'react-admin';
import { BY_ORDER, ResponsiveList, useOrderLine } from '../../lists/ResponsiveList';
import { Thumbnail } from '../../lists/Thumbnail';

export function CoverList() {
  const orderLine = useOrderLine();
  return (
    <List sort={BY_ORDER}>
      <ResponsiveList<CoverRecord>
        phone={{ leftAvatar: (r) => <Thumbnail src={r.image} />, primaryText: (r) => r.title || '—', secondaryText: orderLine }}
      >
        <ImageField source="image" sx={{ '& img': { maxWidth: 120, maxHeight: 60, objectFit: 'cover' } }} sortable={false} />
        <TextField source="title" />
        <UrlField source="link" sortable={false} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <DateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
