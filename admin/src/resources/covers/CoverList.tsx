import { BooleanField, Datagrid, DateField, ImageField, List, NumberField, TextField, UrlField } from 'react-admin';

export function CoverList() {
  return (
    <List sort={{ field: 'order', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ImageField source="image" sx={{ '& img': { maxWidth: 120, maxHeight: 60, objectFit: 'cover' } }} sortable={false} />
        <TextField source="title" />
        <UrlField source="link" sortable={false} />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
