import { DateField, TextField } from 'react-admin';
import { day, PlayerRecords, text, type TabContentProps } from './PlayerRecords';

/** The players who joined with this player's invite. */
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
      <DateField source="createdAt" showTime sortable={false} />
    </PlayerRecords>
  );
}
