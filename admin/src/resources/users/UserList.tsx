import { BooleanField, Datagrid, DateField, List, NumberField, SearchInput, TextField } from 'react-admin';

export function UserList() {
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Name, username or Telegram id" />]}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <NumberField source="telegramId" options={{ useGrouping: false }} />
        <TextField source="name" />
        <TextField source="username" />
        <NumberField source="referrersCount" />
        <NumberField source="missionsCount" />
        <NumberField source="doneMissionsCount" />
        <NumberField source="inviteLimit" />
        <BooleanField source="blocked" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
