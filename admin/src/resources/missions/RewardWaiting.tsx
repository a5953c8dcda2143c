import { useState } from 'react';
import { Alert, AlertTitle, Chip, Stack, TextField as ReasonField } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import { Button, Confirm, useGetIdentity, useGetOne, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { useConsoleCalls } from '../../dataProvider';

/** A reward change waiting for a second operator, as the server shows it on a mission. */
interface Waiting {
  id: string;
  reward: string;
  coin: string;
  requestedBy: string;
  requestedAt: string;
}
type WithWaiting = { id: string; waiting?: Waiting | null };

/** The list's mark on a mission whose reward waits for a second operator. */
export function WaitingBadge() {
  const record = useRecordContext<WithWaiting>();
  const translate = useTranslate();
  if (!record?.waiting) return null;
  return (
    <Chip
      size="small"
      color="warning"
      icon={<HourglassIcon />}
      label={`${translate('brakes.waitingBadge')}: ${record.waiting.reward}`}
      sx={{ ml: 1 }}
      data-testid="mission-reward-waiting"
    />
  );
}

/**
 * On a mission's page: the reward change that waits, who asked and when, and the decision, each confirmed first. The operator
 * who asked may withdraw it (reject) but not approve it; the server also refuses an approver the asker created or empowered.
 */
export function RewardWaiting() {
  const record = useRecordContext<WithWaiting>();
  const { identity } = useGetIdentity();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const locales = useDateLocales();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const waiting = record?.waiting ?? null;
  const { data: coin } = useGetOne<{ id: string; symbol: string }>('gift-coins', { id: waiting?.coin ?? '' }, { enabled: !!waiting });
  const { data: asker } = useGetOne<{ id: string; username: string }>(
    'accounts',
    { id: waiting?.requestedBy ?? '' },
    { enabled: !!waiting, retry: false },
  );
  if (!record || !waiting) return null;
  const reward = `${waiting.reward} ${coin?.symbol ?? ''}`.trim();
  const own = identity?.id !== undefined && String(identity.id) === waiting.requestedBy;
  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    try {
      await calls.decideReward(`missions/${encodeURIComponent(record.id)}/reward/${decision}`, {
        id: waiting.id,
        ...(decision === 'reject' ? { rejectReason: reason } : {}),
      });
      notify(decision === 'approve' ? 'brakes.rewardApproved' : 'brakes.rewardRejected', { type: 'info' });
      setOpen(null);
      refresh();
    } catch (error) {
      notify((error as Error).message || 'common.saveFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert severity="warning" icon={<HourglassIcon />} sx={{ m: 2, mb: 0 }} data-testid="mission-reward-waiting-banner">
      <AlertTitle>{translate('brakes.rewardWaiting')}</AlertTitle>
      {translate('brakes.rewardWaitingText', {
        reward,
        when: [asker?.username, formatWhen(waiting.requestedAt, locales)].filter(Boolean).join(', '),
      })}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          label="brakes.approveReward"
          variant="contained"
          startIcon={<CheckIcon />}
          disabled={busy || own}
          title={own ? translate('brakes.ownRequest') : undefined}
          onClick={() => setOpen('approve')}
        />
        <Button label="brakes.rejectReward" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => setOpen('reject')} />
      </Stack>
      <Confirm
        isOpen={open === 'approve'}
        loading={busy}
        title="brakes.confirmRewardTitle"
        content={translate('brakes.confirmReward', { reward })}
        confirm="brakes.approveReward"
        onConfirm={() => void decide('approve')}
        onClose={() => setOpen(null)}
      />
      <Confirm
        isOpen={open === 'reject'}
        loading={busy}
        title="brakes.rejectTitle"
        content={
          <ReasonField
            label={translate('brakes.rejectReason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            name="rejectReason"
            multiline
            fullWidth
            autoFocus
          />
        }
        confirm="brakes.rejectReward"
        onConfirm={() => void decide('reject')}
        onClose={() => setOpen(null)}
      />
    </Alert>
  );
}
