import { useState } from 'react';
import { TextField as ReasonField } from '@mui/material';
import UndoIcon from '@mui/icons-material/Undo';
import type { LedgerRow } from '@gift/server';
import { clawBackInput } from '@gift/shared';
import { Button, Confirm, useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { useConsoleCalls } from '../../../dataProvider';
import { useConsoleAction } from '../../useConsoleAction';

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
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  if (!row || !canAccess || !TAKEN_BACK.has(row.reason) || row.amount.startsWith('-')) return null;
  const submit = async () => {
    const checked = clawBackInput.safeParse({ entryId: row.id, reason });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? translate('ra.message.invalid_form'));
      return;
    }
    await run(
      () => calls.clawBack(playerId, checked.data),
      (result) => {
        setOpen(false);
        return { message: result.status === 'settled' ? 'clawBack.settled' : 'clawBack.owed', args: result };
      },
    );
  };
  return (
    <span onClick={(event) => event.stopPropagation()}>
      <Button label="clawBack.action" color="error" startIcon={<UndoIcon />} onClick={() => setOpen(true)} />
      <Confirm
        isOpen={open}
        loading={busy}
        title="clawBack.title"
        translateOptions={{ amount: row.amount }}
        content={
          <ReasonField
            label={translate('clawBack.reason')}
            helperText={error || translate('clawBack.help')}
            error={!!error}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setError('');
            }}
            name="reason"
            multiline
            fullWidth
            autoFocus
          />
        }
        confirm="clawBack.action"
        onConfirm={() => void submit()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
