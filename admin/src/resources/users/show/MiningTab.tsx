import { FunctionField } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import { CoinAmount, CoinSymbol, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** The player's mining sessions: what each mined and whether it was moved to the wallet. */
export function MiningTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="mining-sessions"
      link="show"
      primary={(r) => <CoinAmount amount={text(r.amount)} />}
      secondary={(r, { translate, day }) => translate('players.ends', { date: day(r.endsAt) })}
      tertiary={(r, { translate }) => (r.movedAt ? translate('players.moved') : '')}
    >
      <FunctionField<Row> source="amount" sortable={false} render={(r) => text(r.amount)} />
      <CoinSymbol />
      <ConsoleDateField source="startedAt" showTime sortable={false} />
      <ConsoleDateField source="endsAt" showTime sortable={false} />
      <ConsoleDateField source="movedAt" showTime sortable={false} emptyText="—" />
    </PlayerRecords>
  );
}
