import { BooleanField, Datagrid, DateField, ImageField, List, NumberField, SearchInput, SimpleList, TextField } from 'react-admin';
import { useIsSmall } from '../../layout/useIsSmall';

interface CategoryRow {
  id: string;
  title: string;
  order: number;
  enabled: boolean;
  image: string;
}

export function CategoryList() {
  const isSmall = useIsSmall();
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      {isSmall ? (
        <SimpleList<CategoryRow>
          primaryText={(r) => r.title}
          secondaryText={(r) => `Order ${r.order}${r.enabled ? '' : ' · disabled'}`}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <ImageField source="image" sx={{ '& img': { maxWidth: 40, maxHeight: 40, objectFit: 'cover' } }} sortable={false} />
          <TextField source="title" />
          <NumberField source="order" />
          <BooleanField source="enabled" />
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}
