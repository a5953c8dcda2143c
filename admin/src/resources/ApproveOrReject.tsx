import { useState, type ReactNode } from 'react';
import { Stack, TextField as ReasonField } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Confirm, useGetIdentity, useTranslate } from 'react-admin';
import { useConsoleAction } from './useConsoleAction';

const REQUEST_STATUSES = ['pending', 'approved', 'applied', 'rejected'] as const;

/** A request that waits for a second operator (a gift, access asked for an account), as its list shows it. */
export interface WaitingRequest {
  id: string;
  requestedBy: string;
  status: (typeof REQUEST_STATUSES)[number];
  rejectReason: string;
  createdAt: string;
}

/** A request's statuses as a list's choices, named under `section` (`gifts.statuses.pending`). */
export const requestStatusChoices = (section: string) => REQUEST_STATUSES.map((id) => ({ id, name: `${section}.statuses.${id}` }));

/** The message keys of one kind of request that waits for a second operator. */
export interface ApproveOrRejectLabels {
  approve: string;
  reject: string;
  approveTitle: string;
  rejectTitle: string;
  rejectReason: string;
  /** Why the approve button is off for the operator who asked. */
  own: string;
  /** The messages once approved, once rejected. */
  approved: string;
  rejected: string;
}

interface ApproveOrRejectProps {
  labels: ApproveOrRejectLabels;
  /** The operator who asked: they may withdraw it (reject) but not approve it; the server also refuses. */
  requestedBy: string;
  /** What the approval confirms: a sentence, or a message key with `approveOptions`. */
  approveContent: string;
  approveOptions?: Record<string, unknown>;
  approve: () => Promise<unknown>;
  reject: (reason: string) => Promise<unknown>;
  /** On a record's page (a banner): a contained approve button in a row; in a list row the buttons stay inline and keep the row's click. */
  onPage?: boolean;
}

/**
 * Approve, after a confirmation naming what moves, or reject with a reason: the decision on a gift, an access grant or a reward
 * that waits for a second operator. The page refreshes once the server answers; a refusal shows its message and changes nothing.
 */
export function ApproveOrReject(props: ApproveOrRejectProps) {
  const { labels, onPage = false } = props;
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const own = identity?.id !== undefined && String(identity.id) === props.requestedBy;
  const { busy, run } = useConsoleAction();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const decide = (call: () => Promise<unknown>, message: string) =>
    void run(call, () => {
      setOpen(null);
      return { message };
    });
  const buttons: ReactNode = (
    <>
      <Button
        label={labels.approve}
        variant={onPage ? 'contained' : undefined}
        disabled={busy || own}
        title={own ? translate(labels.own) : undefined}
        onClick={() => setOpen('approve')}
      >
        <CheckIcon />
      </Button>
      <Button label={labels.reject} color="error" disabled={busy} onClick={() => setOpen('reject')}>
        <CloseIcon />
      </Button>
      <Confirm
        isOpen={open === 'approve'}
        loading={busy}
        title={labels.approveTitle}
        content={props.approveContent}
        translateOptions={props.approveOptions}
        confirm={labels.approve}
        onConfirm={() => decide(props.approve, labels.approved)}
        onClose={() => setOpen(null)}
      />
      <Confirm
        isOpen={open === 'reject'}
        loading={busy}
        title={labels.rejectTitle}
        content={
          <ReasonField
            label={translate(labels.rejectReason)}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            name="rejectReason"
            multiline
            fullWidth
            autoFocus
          />
        }
        confirm={labels.reject}
        onConfirm={() => decide(() => props.reject(reason), labels.rejected)}
        onClose={() => setOpen(null)}
      />
    </>
  );
  return onPage ? (
    <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
      {buttons}
    </Stack>
  ) : (
    <span onClick={(event) => event.stopPropagation()}>{buttons}</span>
  );
}

/** A reward (a mission's, App Config's) that waits for a second operator. */
export const REWARD_DECISION: ApproveOrRejectLabels = {
  approve: 'brakes.approveReward',
  reject: 'brakes.rejectReward',
  approveTitle: 'brakes.confirmRewardTitle',
  rejectTitle: 'brakes.rejectTitle',
  rejectReason: 'brakes.rejectReason',
  own: 'brakes.ownRequest',
  approved: 'brakes.rewardApproved',
  rejected: 'brakes.rewardRejected',
};
