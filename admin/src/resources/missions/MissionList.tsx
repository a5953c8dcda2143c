import { BooleanField, Datagrid, DateField, List, NumberField, ReferenceField, ReferenceInput, SearchInput, SelectInput, TextField } from 'react-admin';
import { VERIFY_TYPE_CHOICES } from './verifyTypes';

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="category" source="category" reference="categories" />,
  <SelectInput key="verifyType" source="verifyType" choices={VERIFY_TYPE_CHOICES} />,
];

export function MissionList() {
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={filters}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="title" />
        <ReferenceField source="category" reference="categories" sortable={false} />
        <TextField source="verifyType" />
        <TextField source="reward" sortable={false} />
        <ReferenceField source="coin" reference="gift-coins" sortable={false}>
          <TextField source="symbol" />
        </ReferenceField>
        <BooleanField source="mustDone" />
        <NumberField source="order" />
        <BooleanField source="enabled" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
