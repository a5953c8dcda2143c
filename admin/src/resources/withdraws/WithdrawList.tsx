import { Divider } from '@mui/material';
import { Datagrid, DateField, FunctionField, List, SearchInput, SelectField, SimpleList, useBasename } from 'react-admin';
import { CountedTabs } from '../../lists/CountedTabs';
import { ShortText } from '../../lists/ShortText';
import { useIsSmall } from '../../layout/useIsSmall';
import { WITHDRAWAL_STATUS_CHOICES, withdrawalStatusLabel } from './statuses';

interface WithdrawRow {
  id: string;
  userName?: string;
  username?: string;
  amount: string;
  coinSymbol?: string;
  status: string;
  address: string;
  txHash: string;
  createdAt: string;
  processedAt: string | null;
}

const PENDING = { status: 'pending' };
const FINISHED = { status: ['done', 'rejected'] };
const player = (r: WithdrawRow) => (r.username ? `${r.userName ?? ''} (@${r.username})` : (r.userName ?? ''));
const money = (r: WithdrawRow) => `${r.amount} ${r.coinSymbol ?? ''}`.trim();

function WithdrawTabs({ finished }: { finished: boolean }) {
  const basename = useBasename();
  const tabs = [
    { value: 'pending', label: 'Pending', filter: PENDING, to: `${basename}/withdraw` },
    { value: 'done', label: 'Done', filter: FINISHED, to: `${basename}/withdraw/done` },
  ];
  return <CountedTabs resource="withdraws" tabs={tabs} value={finished ? 'done' : 'pending'} />;
}

/** Pending withdraws wait for an operator; finished ones are done or rejected. */
function WithdrawList({ finished = false }: { finished?: boolean }) {
  const isSmall = useIsSmall();
  return (
    <List
      resource="withdraws"
      title={finished ? 'withdraws.doneTitle' : 'withdraws.pendingTitle'}
      filter={finished ? FINISHED : PENDING}
      sort={{ field: 'createdAt', order: finished ? 'DESC' : 'ASC' }}
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Player, address or hash" />]}
      storeKey={finished ? 'withdraws.done' : 'withdraws.pending'}
      // an empty list keeps its tabs, so the operator can still switch between pending and done
      empty={false}
    >
      <WithdrawTabs finished={finished} />
      <Divider />
      {isSmall ? (
        <SimpleList<WithdrawRow>
          primaryText={money}
          secondaryText={player}
          tertiaryText={(r) => (finished ? withdrawalStatusLabel(r.status) : new Date(r.createdAt).toLocaleDateString())}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <FunctionField<WithdrawRow> label="resources.withdraws.fields.user" render={player} />
          <FunctionField<WithdrawRow> source="amount" sortable={false} render={money} />
          <ShortText source="address" sortable={false} />
          <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} />
          {finished && <ShortText source="txHash" sortable={false} />}
          {finished && <DateField source="processedAt" showTime emptyText="—" />}
          <DateField source="createdAt" showTime />
        </Datagrid>
      )}
    </List>
  );
}

export function PendingWithdrawList() {
  return <WithdrawList />;
}

export function DoneWithdrawList() {
  return <WithdrawList finished />;
}
