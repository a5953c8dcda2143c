import { BooleanField, Datagrid, DateField, ImageField, List, NumberField, SearchInput, TextField } from 'react-admin';

export function GiftCoinList() {
  return (
    <List sort={{ field: 'order', order: 'ASC' }} filters={[<SearchInput key="q" source="q" alwaysOn />]}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ImageField source="icon" sx={{ '& img': { maxWidth: 32, maxHeight: 32, borderRadius: '50%' } }} sortable={false} />
        <TextField source="name" />
        <TextField source="symbol" />
        <TextField source="network" />
        <TextField source="usdPrice" sortable={false} />
        <TextField source="minWithdraw" sortable={false} />
        <BooleanField source="withdrawEnabled" />
        <BooleanField source="enabled" />
        <NumberField source="order" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
