import { useState } from 'react';
import UndoIcon from '@mui/icons-material/Undo';
import type { LedgerRow } from '@gift/server';
import { clawBackInput } from '@gift/shared';
import { Button, Confirm, useCanAccess, useRecordContext } from 'react-admin';
import { useConsoleCalls } from '../../../dataProvider';
import { useConsoleAction } from '../../useConsoleAction';
import { ReasonField, useReason } from '../../../forms/ReasonField';

/** Credits an operator may take back: rewards, mining and gifts (the server refuses the rest too). */
const TAKEN_BACK = new Set(['mission', 'referral', 'mining', 'gift']);

/**
 * Takes one credit back with the reason: what the balance covers now, the rest owed until it is covered (and withdrawals wait).
 * Asks first, naming the amount; the gifts permission only.
 */
export function TakeBackButton({ playerId }: { playerId: string }) {
  const row = useRecordContext<LedgerRow>();
  const { canAccess } = useCanAccess({ resource: 'gifts', action: 'create' });
  const calls = useConsoleCalls();
  const { busy, run } = useConsoleAction();
  const [open, setOpen] = useState(false);
  const reason = useReason();
  if (!row || !canAccess || !TAKEN_BACK.has(row.reason) || row.amount.startsWith('-')) return null;
  const submit = async () => {
    const body = reason.check(clawBackInput, { entryId: row.id, reason: reason.value });
    if (!body) return;
    await run(
      () => calls.clawBack(playerId, body),
      (result) => {
        setOpen(false);
        return { message: result.status === 'settled' ? 'clawBack.settled' : 'clawBack.owed', args: result };
      },
    );
  };
  return (
    <span onClick={(event) => event.stopPropagation()}>
      <Button label="clawBack.action" color="error" onClick={() => setOpen(true)}>
        <UndoIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="clawBack.title"
        translateOptions={{ amount: row.amount }}
        content={<ReasonField reason={reason} label="clawBack.reason" help="clawBack.help" name="reason" />}
        confirm="clawBack.action"
        onConfirm={() => void submit()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
