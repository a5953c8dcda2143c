import { FunctionField, ReferenceField, SelectField } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import { USER_MISSION_STATUS_CHOICES } from '../../user-missions/statuses';
import { PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

const reward = (r: Row) => `${text(r.reward)} ${text(r.coinSymbol)}`;

/** The player's progress on each mission they touched; a row opens its review. */
export function MissionsTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="user-missions"
      link="edit"
      primary={() => <ReferenceField source="mission" reference="missions" link={false} />}
      secondary={(r, { translate }) => translate(`statuses.progress.${text(r.status)}`)}
      tertiary={reward}
    >
      <ReferenceField source="mission" reference="missions" link={false} sortable={false} />
      <SelectField source="status" choices={USER_MISSION_STATUS_CHOICES} sortable={false} />
      <FunctionField<Row> source="reward" sortable={false} render={reward} />
      <ConsoleDateField source="createdAt" showTime sortable={false} />
    </PlayerRecords>
  );
}
