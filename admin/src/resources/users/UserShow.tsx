import { BooleanField, DateField, EditButton, NumberField, ReferenceField, Show, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';

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
        <TextField source="rewards" emptyText="—" />
        <TextField source="earned" emptyText="—" />
        <TextField source="withdrawn" emptyText="—" />
        <TextField source="gifts" emptyText="—" />
        <BooleanField source="blocked" />
        <DateField source="lastSeenAt" showTime />
        <DateField source="createdAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}
