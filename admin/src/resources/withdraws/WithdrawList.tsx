import { Link } from 'react-router';
import { Button, Datagrid, DateField, List, ReferenceField, SearchInput, SelectField, TextField, TopToolbar, useBasename } from 'react-admin';
import { WITHDRAWAL_STATUS_CHOICES } from './statuses';

function WithdrawTabs({ finished }: { finished: boolean }) {
  const basename = useBasename();
  return (
    <TopToolbar>
      <Button component={Link} to={`${basename}/withdraw`} label="Pending" variant={finished ? 'text' : 'contained'} />
      <Button component={Link} to={`${basename}/withdraw/done`} label="Done" variant={finished ? 'contained' : 'text'} />
    </TopToolbar>
  );
}

/** Pending withdraws wait for an operator; finished ones are done or rejected. */
export function WithdrawList({ finished = false }: { finished?: boolean }) {
  return (
    <List
      resource="withdraws"
      title={finished ? 'withdraws.doneTitle' : 'withdraws.pendingTitle'}
      filter={{ status: finished ? ['done', 'rejected'] : 'pending' }}
      sort={{ field: 'createdAt', order: finished ? 'DESC' : 'ASC' }}
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Address or transaction hash" />]}
      storeKey={finished ? 'withdraws.done' : 'withdraws.pending'}
      actions={<WithdrawTabs finished={finished} />}
      // an empty list keeps its tabs, so the operator can still switch between pending and done
      empty={false}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <ReferenceField source="user" reference="users" sortable={false} />
        <ReferenceField source="coin" reference="gift-coins" sortable={false}>
          <TextField source="symbol" />
        </ReferenceField>
        <TextField source="amount" sortable={false} />
        <TextField source="address" sortable={false} />
        <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} />
        {finished && <TextField source="txHash" sortable={false} emptyText="—" />}
        {finished && <DateField source="processedAt" showTime emptyText="—" />}
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

export function PendingWithdrawList() {
  return <WithdrawList />;
}

export function DoneWithdrawList() {
  return <WithdrawList finished />;
}
