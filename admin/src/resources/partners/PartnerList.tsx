import type { PartnerRecord } from '@gift/server';
import { BooleanField, DateField, ImageField, List, NumberField, TextField, UrlField } from 'react-admin';
import { BY_ORDER, ResponsiveList, searchFilter, useOrderLine } from '../../lists/ResponsiveList';
import { Thumbnail } from '../../lists/Thumbnail';

export function PartnerList() {
  const orderLine = useOrderLine();
  return (
    <List sort={BY_ORDER} filters={[searchFilter()]}>
      <ResponsiveList<PartnerRecord>
        phone={{ leftAvatar: (r) => <Thumbnail src={r.image} />, primaryText: (r) => r.name, secondaryText: (r) => r.link || orderLine(r) }}
      >
        <ImageField source="image" sx={{ '& img': { maxWidth: 40, maxHeight: 40, objectFit: 'cover' } }} sortable={false} />
        <TextField source="name" />
        <UrlField source="link" sortable={false} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <DateField source="createdAt" showTime />
      </ResponsiveList>
    </List>
  );
}
