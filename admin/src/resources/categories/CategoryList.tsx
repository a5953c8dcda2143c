import { BooleanField, Datagrid, DateField, ImageField, List, NumberField, SearchInput, TextField } from 'react-admin';

export function CategoryList() {
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ImageField source="image" sx={{ '& img': { maxWidth: 40, maxHeight: 40, objectFit: 'cover' } }} sortable={false} />
        <TextField source="title" />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
