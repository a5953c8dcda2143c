import type { LedgerRow } from '@gift/server';
import { DateField, FunctionField, SimpleList, TextField, useTranslate } from 'react-admin';
import { LedgerRecordLink } from '../LedgerRecordLink';
import { CoinSymbol, day, PlayerRecords, signed, type TabContentProps } from './PlayerRecords';

/** Every posted entry of the player's ledger: amount, reason, the record it came from, the operator and its key. */
export function LedgerTab(_props: TabContentProps) {
  const translate = useTranslate();
  return (
    <PlayerRecords
      reference="ledger-entries"
      link={false}
      simple={
        <SimpleList<LedgerRow>
          primaryText={(r) => (
            <span>
              {signed(r.amount)} <CoinSymbol />
            </span>
          )}
          secondaryText={(r) =>
            [r.reason, r.note, r.operator ? translate('players.byOperator', { operator: r.operator }) : ''].filter(Boolean).join(' · ')
          }
          tertiaryText={(r) => day(r.createdAt)}
          linkType={false}
        />
      }
    >
      <DateField source="createdAt" showTime sortable={false} />
      <FunctionField<LedgerRow> source="amount" sortable={false} render={(r) => signed(r.amount)} textAlign="right" />
      <CoinSymbol />
      <TextField source="reason" sortable={false} />
      <TextField source="note" sortable={false} emptyText="—" />
      <LedgerRecordLink label="players.record" />
      <TextField source="operator" sortable={false} emptyText="—" />
      <TextField source="idempotencyKey" sortable={false} sx={{ fontFamily: 'monospace', fontSize: 12 }} />
    </PlayerRecords>
  );
}
