import { useState } from 'react';
import { Alert, Stack, TextField as ReasonField } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Confirm, useGetIdentity, useGetMany, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';

type Kind = 'referral' | 'streakMilestones';
interface Waiting {
  id: string;
  requestedBy: string;
  coin?: string;
  amount?: string;
  milestones?: { days: number; coin: string; amount: string }[];
}
type ConfigRecord = { waitingRewards?: Partial<Record<Kind, Waiting | null>> };

/** One waiting App Config reward with its decision, each confirmed first (the operator who asked may only withdraw it). */
function WaitingReward({ kind, waiting }: { kind: Kind; waiting: Waiting }) {
  const { identity } = useGetIdentity();
  const calls = useConsoleCalls();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const coinIds = [...new Set([waiting.coin, ...(waiting.milestones ?? []).map((m) => m.coin)].filter((id): id is string => !!id))];
  const { data: coins = [] } = useGetMany<{ id: string; symbol: string }>('gift-coins', { ids: coinIds });
  const symbol = (id?: string) => coins.find((c) => c.id === id)?.symbol ?? '';
  const text =
    kind === 'referral'
      ? translate('brakes.configReferralWaiting', { amount: `${waiting.amount ?? ''} ${symbol(waiting.coin)}`.trim() })
      : translate('brakes.configMilestonesWaiting', {
          list: (waiting.milestones ?? []).map((m) => `${m.days}: ${m.amount} ${symbol(m.coin)}`.trim()).join(', '),
        });
  const own = identity?.id !== undefined && String(identity.id) === waiting.requestedBy;
  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    try {
      await calls.decideReward(`app-config/current/rewards/${kind}/${decision}`, {
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
    <Alert severity="warning" sx={{ mb: 2, width: '100%' }} data-testid={`config-reward-waiting-${kind}`}>
      {text}
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
        content={text}
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

/** App Config's rewards (referral, streak milestones) set above their coin's threshold, waiting for a second operator. */
export function ConfigRewardsWaiting() {
  const record = useRecordContext<ConfigRecord>();
  const waiting = record?.waitingRewards ?? {};
  return (
    <>
      {(['referral', 'streakMilestones'] as const).map((kind) => {
        const one = waiting[kind];
        return one ? <WaitingReward key={one.id} kind={kind} waiting={one} /> : null;
      })}
    </>
  );
}
