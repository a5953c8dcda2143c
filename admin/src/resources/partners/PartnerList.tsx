import { BooleanField, Datagrid, DateField, ImageField, List, NumberField, SearchInput, TextField, UrlField } from 'react-admin';

export function PartnerList() {
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ImageField source="image" sx={{ '& img': { maxWidth: 40, maxHeight: 40, objectFit: 'cover' } }} sortable={false} />
        <TextField source="name" />
        <UrlField source="link" sortable={false} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
