import { BooleanField, Datagrid, DateField, List, SearchInput, TextArrayField, TextField } from 'react-admin';

export function AccountList() {
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="username" />
        <TextArrayField source="permissions" sortable={false} />
        <BooleanField source="enabled" />
        <DateField source="lastLoginAt" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
