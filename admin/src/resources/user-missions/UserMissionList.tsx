import { Datagrid, DateField, List, ReferenceField, SearchInput, SelectField, SelectInput, TextField } from 'react-admin';
import { USER_MISSION_STATUS_CHOICES } from './statuses';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={USER_MISSION_STATUS_CHOICES} />,
];

export function UserMissionList() {
  return (
    <List filters={filters}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ReferenceField source="user" reference="users" sortable={false} />
        <ReferenceField source="mission" reference="missions" sortable={false} />
        <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} />
        <TextField source="reward" sortable={false} />
        <DateField source="claimedAt" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
