import { DateField, SimpleList, TextField } from 'react-admin';
import { day, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** The players who joined with this player's invite. */
export function FriendsTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="users"
      target="referrer"
      link="show"
      simple={
        <SimpleList<Row>
          primaryText={(r) => text(r.name)}
          secondaryText={(r) => (r.username ? `@${text(r.username)}` : '')}
          tertiaryText={(r) => day(r.createdAt)}
          linkType="show"
        />
      }
    >
      <TextField source="name" sortable={false} />
      <TextField source="username" sortable={false} emptyText="—" />
      <DateField source="createdAt" showTime sortable={false} />
    </PlayerRecords>
  );
}
