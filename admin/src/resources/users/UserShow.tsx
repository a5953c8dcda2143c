import {
  ArrayField,
  BooleanField,
  Datagrid,
  DateField,
  EditButton,
  NumberField,
  ReferenceField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
} from 'react-admin';

function UserShowActions() {
  return (
    <TopToolbar>
      <EditButton />
    </TopToolbar>
  );
}

export function UserShow() {
  return (
    <Show actions={<UserShowActions />}>
      <SimpleShowLayout>
        <NumberField source="telegramId" options={{ useGrouping: false }} />
        <TextField source="name" />
        <TextField source="username" />
        <TextField source="language" />
        <BooleanField source="messagePermission" />
        <BooleanField source="isPremium" />
        <ReferenceField source="referrer" reference="users" emptyText="—" />
        <NumberField source="inviteLimit" />
        <NumberField source="referrersCount" />
        <NumberField source="missionsCount" />
        <NumberField source="doneMissionsCount" />
        {/* money figures are per coin: the server derives them from the ledger */}
        <ArrayField source="coins" label="Balances and figures">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>—</span>}>
            <TextField source="symbol" />
            <TextField source="balance" textAlign="right" />
            <TextField source="rewards" textAlign="right" />
            <TextField source="earned" textAlign="right" />
            <TextField source="withdrawn" textAlign="right" />
            <TextField source="gifts" textAlign="right" />
          </Datagrid>
        </ArrayField>
        <BooleanField source="blocked" />
        <DateField source="lastSeenAt" showTime />
        <DateField source="createdAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}
