import { FunctionField, SelectField } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import { WITHDRAWAL_STATUS_CHOICES } from '../../withdraws/statuses';
import { PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

const money = (r: Row) => `${text(r.amount)} ${text(r.coinSymbol)}`;

/** The player's withdrawals; a row opens its decision. */
export function WithdrawalsTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="withdraws"
      link="edit"
      primary={money}
      secondary={(r, { translate }) => translate(`statuses.withdrawal.${text(r.status)}`)}
      tertiary={(r, { day }) => day(r.createdAt)}
    >
      <FunctionField<Row> source="amount" sortable={false} render={money} />
      <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} sortable={false} />
      <ConsoleDateField source="createdAt" showTime sortable={false} />
      <ConsoleDateField source="processedAt" showTime sortable={false} emptyText="—" />
    </PlayerRecords>
  );
}
