import { BooleanField, Datagrid, DateField, ImageField, List, NumberField, SimpleList, TextField, UrlField } from 'react-admin';
import { useIsSmall } from '../../layout/useIsSmall';

interface CoverRow {
  id: string;
  title: string;
  image: string;
  link: string;
  order: number;
  enabled: boolean;
}

export function CoverList() {
  const isSmall = useIsSmall();
  return (
    <List sort={{ field: 'order', order: 'ASC' }}>
      {isSmall ? (
        <SimpleList<CoverRow>
          leftAvatar={(r) => <img src={r.image} alt="" style={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 4 }} />}
          primaryText={(r) => r.title || '—'}
          secondaryText={(r) => `Order ${r.order}${r.enabled ? '' : ' · disabled'}`}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <ImageField source="image" sx={{ '& img': { maxWidth: 120, maxHeight: 60, objectFit: 'cover' } }} sortable={false} />
          <TextField source="title" />
          <UrlField source="link" sortable={false} />
          <NumberField source="order" />
          <BooleanField source="enabled" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
