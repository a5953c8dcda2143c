import type { LedgerRow } from '@gift/server';
import { FunctionField, TextField, useRecordContext } from 'react-admin';
import { ConsoleDateField } from '../../../lists/ConsoleDateField';
import { TakeBackButton } from './TakeBackButton';
import { LedgerRecordLink } from '../LedgerRecordLink';
import { CoinAmount, CoinSymbol, PlayerRecords, signed, type TabContentProps } from './PlayerRecords';

/** Every posted entry of the player's ledger: amount, reason, the record it came from, the operator and its key. */
export function LedgerTab(_props: TabContentProps) {
  const player = useRecordContext<{ id: string }>();
  return (
    <PlayerRecords<LedgerRow>
      reference="ledger-entries"
      link={false}
      primary={(r) => <CoinAmount amount={signed(r.amount)} />}
      secondary={(r, { translate }) =>
        [r.reason, r.note, r.operator ? translate('players.byOperator', { operator: r.operator }) : '']
          .filter(Boolean)
          .join(translate('common.separator'))
      }
      tertiary={(r, { day }) => day(r.createdAt)}
    >
      <ConsoleDateField source="createdAt" showTime sortable={false} />
      <FunctionField<LedgerRow> source="amount" sortable={false} render={(r) => signed(r.amount)} textAlign="right" />
      <CoinSymbol />
      <TextField source="reason" sortable={false} />
      <TextField source="note" sortable={false} emptyText="—" />
      <LedgerRecordLink label="players.record" />
      <TextField source="operator" sortable={false} emptyText="—" />
      <TextField source="idempotencyKey" sortable={false} sx={{ fontFamily: 'monospace', fontSize: 12 }} />
      {player && <FunctionField<LedgerRow> label="clawBack.column" render={() => <TakeBackButton playerId={String(player.id)} />} />}
    </PlayerRecords>
  );
}
