import { DateField, FunctionField, SimpleList, useTranslate } from 'react-admin';
import { CoinSymbol, day, PlayerRecords, text, type Row, type TabContentProps } from './PlayerRecords';

/** The player's mining sessions: what each mined and whether it was moved to the wallet. */
export function MiningTab(_props: TabContentProps) {
  const translate = useTranslate();
  return (
    <PlayerRecords
      reference="mining-sessions"
      link="show"
      simple={
        <SimpleList<Row>
          primaryText={(r) => (
            <span>
              {text(r.amount)} <CoinSymbol />
            </span>
          )}
          secondaryText={(r) => translate('players.ends', { date: day(r.endsAt) })}
          tertiaryText={(r) => (r.movedAt ? translate('players.moved') : '')}
          linkType="show"
        />
      }
    >
      <FunctionField<Row> source="amount" sortable={false} render={(r) => text(r.amount)} />
      <CoinSymbol />
      <DateField source="startedAt" showTime sortable={false} />
      <DateField source="endsAt" showTime sortable={false} />
      <DateField source="movedAt" showTime sortable={false} emptyText="—" />
    </PlayerRecords>
  );
}
