import { useState } from 'react';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Confirm, useListContext, useNotify, useRefresh, useTranslate, useUnselectAll } from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';
import { rejectionInput } from '@gift/shared';
import { ReasonField, useReason } from '../../forms/ReasonField';

/** One call reviews every selected mission through the same service as a single review. */
function useBulkReview() {
  const dataProvider = useConsoleCalls();
  const { selectedIds } = useListContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('user-missions');
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const review = async (decision: { status: 'done' } | { status: 'rejected'; rejectReason: string }) => {
    setBusy(true);
    try {
      const { reviewed, refused, waiting = [] } = await dataProvider.bulkReview({ ids: selectedIds.map(String), ...decision });
      const failures = Object.values(refused);
      const done = decision.status === 'done' ? 'reviews.approved' : 'reviews.rejected';
      // approved past the reviewer's daily limit: pending until a second operator approves them too
      if (waiting.length)
        notify('brakes.bulkWaiting', {
          type: 'warning',
          messageArgs: { done: translate(done, { count: reviewed.length }), count: waiting.length },
        });
      else if (!failures.length) notify(done, { type: 'info', messageArgs: { count: reviewed.length } });
      else
        notify('reviews.notChanged', {
          type: 'warning',
          messageArgs: { done: translate(done, { count: reviewed.length }), count: failures.length, reason: failures[0] },
        });
      unselectAll();
      refresh();
    } catch (error) {
      const message = (error as Error).message;
      notify(message || 'common.saveFailed', { type: 'error', messageArgs: { _: message } });
    } finally {
      setBusy(false);
    }
  };
  return { review, busy, count: selectedIds.length };
}

/** Approving credits every selected mission's reward: it asks first, naming how many. */
export function BulkApproveButton() {
  const { review, busy, count } = useBulkReview();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label="reviews.bulkApprove" disabled={busy} onClick={() => setOpen(true)}>
        <CheckIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="reviews.approveTitle"
        translateOptions={{ smart_count: count }}
        content="reviews.approveConfirm"
        confirm="reviews.bulkApprove"
        onConfirm={() => void review({ status: 'done' }).then(() => setOpen(false))}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** Rejecting asks for the reason the players will read, checked with the same schema as the server. */
export function BulkRejectButton() {
  const { review, busy, count } = useBulkReview();
  const [open, setOpen] = useState(false);
  const reason = useReason();
  const confirm = async () => {
    const decision = reason.check(rejectionInput, { rejectReason: reason.value });
    if (!decision) return;
    await review({ status: 'rejected', ...decision });
    setOpen(false);
    reason.change('');
  };
  return (
    <>
      <Button label="reviews.bulkReject" disabled={busy} onClick={() => setOpen(true)} color="error">
        <CloseIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title="reviews.rejectTitle"
        translateOptions={{ smart_count: count }}
        content={<ReasonField reason={reason} label="reviews.rejectReason" help="reviews.playersSee" name="rejectReason" />}
        confirm="Reject"
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
