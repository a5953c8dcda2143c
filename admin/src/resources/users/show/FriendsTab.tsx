import { DateField, FunctionField, NumberField, TextField } from 'react-admin';
import type { PlayerStatus, RiskLevel } from '@gift/shared';
import { StatusChip } from '../StatusButtons';
import { RiskChip } from '../risk/RiskViews';
import { day, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** The players who joined with this player's invite, each with their own friends, risk score and status. */
export function FriendsTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="users"
      target="referrer"
      link="show"
      primary={(r) => text(r.name)}
      secondary={(r) => (r.username ? `@${text(r.username)}` : '')}
      tertiary={(r) => day(r.createdAt)}
    >
      <TextField source="name" sortable={false} />
      <TextField source="username" sortable={false} emptyText="—" />
      {/* the tree's second level: each friend's own friends, on their page */}
      <NumberField source="referrersCount" sortable={false} />
      <FunctionField<Row>
        source="risk.score"
        label="risk.scoreColumn"
        sortable={false}
        render={(r) => <RiskChip {...(r.risk as { level?: RiskLevel; score?: number })} />}
      />
      <FunctionField<Row> source="status" sortable={false} render={(r) => <StatusChip status={r.status as PlayerStatus} />} />
      <DateField source="createdAt" showTime sortable={false} />
    </PlayerRecords>
  );
}
