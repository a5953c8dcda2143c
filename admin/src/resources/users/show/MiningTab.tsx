import { FunctionField, useTranslate } from 'react-admin';
import { ConsoleDateField, useDateLocales } from '../../../lists/ConsoleDateField';
import { CoinAmount, CoinSymbol, day, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** The player's mining sessions: what each mined and whether it was moved to the wallet. */
export function MiningTab(_props: TabContentProps) {
  const locales = useDateLocales();
  const translate = useTranslate();
  return (
    <PlayerRecords
      reference="mining-sessions"
      link="show"
      primary={(r) => <CoinAmount amount={text(r.amount)} />}
      secondary={(r) => translate('players.ends', { date: day(r.endsAt, locales) })}
      tertiary={(r) => (r.movedAt ? translate('players.moved') : '')}
    >
      <FunctionField<Row> source="amount" sortable={false} render={(r) => text(r.amount)} />
      <CoinSymbol />
      <ConsoleDateField source="startedAt" showTime sortable={false} />
      <ConsoleDateField source="endsAt" showTime sortable={false} />
      <ConsoleDateField source="movedAt" showTime sortable={false} emptyText="—" />
    </PlayerRecords>
  );
}
