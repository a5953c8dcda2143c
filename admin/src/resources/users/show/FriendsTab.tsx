import { Datagrid, FunctionField, NumberField, ReferenceManyField, TextField } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import type { PlayerStatus, RiskLevel } from '@gift/shared';
import { StatusChip } from '../StatusButtons';
import { RiskChip } from '../risk/RiskViews';
import { PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** A friend's score and status, as chips: the two columns both levels of the tree show. */
const riskOf = (r: Row) => <RiskChip {...(r.risk as { level?: RiskLevel; score?: number })} />;
const statusOf = (r: Row) => <StatusChip status={r.status as PlayerStatus} />;

/** A friend's own friends, below their row: the referral tree's second level, each with a score and status. */
function SecondLevel() {
  return (
    <ReferenceManyField reference="users" target="referrer" perPage={25} sort={{ field: 'createdAt', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<span>—</span>}>
        <TextField source="name" sortable={false} />
        <FunctionField<Row> source="risk.score" label="risk.scoreColumn" sortable={false} render={riskOf} />
        <FunctionField<Row> source="status" sortable={false} render={statusOf} />
        <ConsoleDateField source="createdAt" showTime sortable={false} />
      </Datagrid>
    </ReferenceManyField>
  );
}

/** The players who joined with this player's invite, each with their own friends (open a row for them), risk score and status. */
export function FriendsTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="users"
      target="referrer"
      expand={<SecondLevel />}
      link="show"
      primary={(r) => text(r.name)}
      secondary={(r) => (r.username ? `@${text(r.username)}` : '')}
      tertiary={(r, { day }) => day(r.createdAt)}
    >
      <TextField source="name" sortable={false} />
      <TextField source="username" sortable={false} emptyText="—" />
      {/* how many friends each friend has: open the row for them */}
      <NumberField source="referrersCount" sortable={false} />
      <FunctionField<Row> source="risk.score" label="risk.scoreColumn" sortable={false} render={riskOf} />
      <FunctionField<Row> source="status" sortable={false} render={statusOf} />
      <ConsoleDateField source="createdAt" showTime sortable={false} />
    </PlayerRecords>
  );
}
