import { useState } from 'react';
import { TextField as ReasonField } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Confirm, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';
import { userMissionBulkReviewInput } from '@gift/shared';

/** One call reviews every selected mission through the same service as a single review. */
function useBulkReview() {
  const dataProvider = useConsoleCalls();
  const { selectedIds } = useListContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('user-missions');
  const [busy, setBusy] = useState(false);
  const review = async (decision: { status: 'done' } | { status: 'rejected'; rejectReason: string }) => {
    setBusy(true);
    try {
      const { reviewed, refused } = await dataProvider.bulkReview({ ids: selectedIds.map(String), ...decision });
      const failures = Object.values(refused);
      const verb = decision.status === 'done' ? 'Approved' : 'Rejected';
      notify(failures.length ? `${verb} ${reviewed.length}; ${failures.length} not changed: ${failures[0]}` : `${verb} ${reviewed.length}`, {
        type: failures.length ? 'warning' : 'info',
      });
      unselectAll();
      refresh();
    } catch (error) {
      notify((error as Error).message || 'Save failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return { review, busy, count: selectedIds.length };
}

export function BulkApproveButton() {
  const { review, busy } = useBulkReview();
  return <Button label="Approve" startIcon={<CheckIcon />} disabled={busy} onClick={() => void review({ status: 'done' })} />;
}

/** Rejecting asks for the reason the players will read, checked with the same schema as the server. */
export function BulkRejectButton() {
  const { review, busy, count } = useBulkReview();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const confirm = async () => {
    const checked = userMissionBulkReviewInput.safeParse({ ids: ['0'.repeat(24)], status: 'rejected', rejectReason: reason });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Invalid input');
      return;
    }
    await review({ status: 'rejected', rejectReason: reason });
    setOpen(false);
    setReason('');
  };
  return (
    <>
      <Button label="Reject" startIcon={<CloseIcon />} disabled={busy} onClick={() => setOpen(true)} color="error" />
      <Confirm
        isOpen={open}
        loading={busy}
        title={`Reject ${count} mission${count === 1 ? '' : 's'}`}
        content={
          <ReasonField
            label="Reject reason"
            helperText={error || 'The players see it and can try again'}
            error={!!error}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setError('');
            }}
            multiline
            fullWidth
            autoFocus
            name="rejectReason"
          />
        }
        confirm="Reject"
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
