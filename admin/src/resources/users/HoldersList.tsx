import { List, ReferenceField, ReferenceInput, SelectInput, TextField, useTranslate } from 'react-admin';
import { ResponsiveList } from '../../lists/ResponsiveList';
import { ListActions } from '../../lists/ListActions';

interface BalanceRow {
  id: string;
  user: string;
  coin: string;
  amount: string;
}

/** Players by their balance of one coin, largest first (the coin chosen above the list); a row's player opens their page. */
export function HoldersList() {
  const translate = useTranslate();
  return (
    <List
      resource="balances"
      title="holders.title"
      storeKey="balances.holders"
      actions={<ListActions />}
      sort={{ field: 'amount', order: 'DESC' }}
      filters={[
        <ReferenceInput key="coin" source="coin" reference="gift-coins" sort={{ field: 'order', order: 'ASC' }} alwaysOn>
          <SelectInput optionText="symbol" label="holders.coin" />
        </ReferenceInput>,
      ]}
      empty={false}
    >
      <ResponsiveList<BalanceRow>
        rowClick={false}
        phone={{ primaryText: (r) => r.amount, secondaryText: () => translate('holders.openPlayer') }}
      >
        <ReferenceField source="user" reference="users" link="show" sortable={false} label="holders.player" />
        <ReferenceField source="coin" reference="gift-coins" link={false} sortable={false} label="holders.coin">
          <TextField source="symbol" />
        </ReferenceField>
        <TextField source="amount" label="holders.amount" textAlign="right" />
      </ResponsiveList>
    </List>
  );
}
