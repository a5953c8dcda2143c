import { FunctionField, TextField } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import { CoinAmount, CoinSymbol, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** The player's stakes: amount, term, profit and when each unlocks. */
export function StakesTab(_props: TabContentProps) {
  return (
    <PlayerRecords
      reference="stakes"
      link="show"
      primary={(r) => <CoinAmount amount={text(r.amount)} />}
      secondary={(r, { translate }) => translate('players.stakeTerms', { duration: text(r.duration), percent: text(r.profitPercent) })}
      tertiary={(r, { translate, day }) =>
        r.claimedAt ? translate('players.claimed') : translate('players.unlocks', { date: day(r.unlocksAt) })
      }
    >
      <FunctionField<Row> source="amount" sortable={false} render={(r) => text(r.amount)} />
      <CoinSymbol />
      <TextField source="duration" sortable={false} />
      <TextField source="profit" sortable={false} />
      <ConsoleDateField source="unlocksAt" showTime sortable={false} />
      <ConsoleDateField source="claimedAt" showTime sortable={false} emptyText="—" />
    </PlayerRecords>
  );
}
