import { BooleanField, Datagrid, DateField, List, NumberField, ReferenceField, TextField } from 'react-admin';

export function StakingCoinList() {
  return (
    <List sort={{ field: 'order', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ReferenceField source="coin" reference="gift-coins" sortable={false} />
        <TextField source="minAmount" sortable={false} />
        <TextField source="maxAmount" sortable={false} />
        <TextField source="profits.week" sortable={false} />
        <TextField source="profits.month" sortable={false} />
        <TextField source="profits.threeMonths" sortable={false} />
        <TextField source="profits.sixMonths" sortable={false} />
        <TextField source="profits.year" sortable={false} />
        <BooleanField source="enabled" />
        <NumberField source="order" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
