import {
  BooleanField,
  Datagrid,
  DateField,
  ImageField,
  List,
  NumberField,
  SearchInput,
  SimpleList,
  TextField,
  UrlField,
} from 'react-admin';
import { useIsSmall } from '../../layout/useIsSmall';

interface PartnerRow {
  id: string;
  name: string;
  image: string;
  link: string;
  order: number;
  enabled: boolean;
}

export function PartnerList() {
  const isSmall = useIsSmall();
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      {isSmall ? (
        <SimpleList<PartnerRow>
          leftAvatar={(r) => <img src={r.image} alt="" style={{ width: 40, height: 40, objectFit: 'cover', borderRadius: 4 }} />}
          primaryText={(r) => r.name}
          secondaryText={(r) => r.link || '—'}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <ImageField source="image" sx={{ '& img': { maxWidth: 40, maxHeight: 40, objectFit: 'cover' } }} sortable={false} />
          <TextField source="name" />
          <UrlField source="link" sortable={false} />
          <NumberField source="order" />
          <BooleanField source="enabled" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
