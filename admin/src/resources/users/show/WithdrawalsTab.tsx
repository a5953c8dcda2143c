import { FunctionField, SelectField, useTranslate } from 'react-admin';
import { ConsoleDateField, useDateLocales } from '../../../lists/ConsoleDateField';
import { WITHDRAWAL_STATUS_CHOICES } from '../../withdraws/statuses';
import { day, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

const money = (r: Row) => `${text(r.amount)} ${text(r.coinSymbol)}`;

/** The player's withdrawals; a row opens its decision. */
export function WithdrawalsTab(_props: TabContentProps) {
  const locales = useDateLocales();
  const translate = useTranslate();
  return (
    <PlayerRecords
      reference="withdraws"
      link="edit"
      primary={money}
      secondary={(r) => translate(`statuses.withdrawal.${text(r.status)}`)}
      tertiary={(r) => day(r.createdAt, locales)}
    >
      <FunctionField<Row> source="amount" sortable={false} render={money} />
      <SelectField source="status" choices={WITHDRAWAL_STATUS_CHOICES} sortable={false} />
      <ConsoleDateField source="createdAt" showTime sortable={false} />
      <ConsoleDateField source="processedAt" showTime sortable={false} emptyText="—" />
    </PlayerRecords>
  );
}
