import { Alert, AlertTitle, Chip } from '@mui/material';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import { useGetIdentity, useGetOne, useRecordContext, useTranslate } from 'react-admin';
import { formatWhen, useDateLocales } from '../../lists/ConsoleDateField';
import { useConsoleCalls } from '../../dataProvider';
import { ApproveOrReject, REWARD_DECISION } from '../ApproveOrReject';

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
  const translate = useTranslate();
  const locales = useDateLocales();
  const waiting = record?.waiting ?? null;
  const { data: coin } = useGetOne<{ id: string; symbol: string }>('gift-coins', { id: waiting?.coin ?? '' }, { enabled: !!waiting });
  const { data: asker } = useGetOne<{ id: string; username: string }>(
    'accounts',
    { id: waiting?.requestedBy ?? '' },
    { enabled: !!waiting, retry: false },
  );
  if (!record || !waiting) return null;
  const reward = `${waiting.reward} ${coin?.symbol ?? ''}`.trim();
  const decide = (decision: 'approve' | 'reject', rejectReason?: string) =>
    calls.decideReward(`missions/${encodeURIComponent(record.id)}/reward/${decision}`, {
      id: waiting.id,
      ...(decision === 'reject' ? { rejectReason } : {}),
    });
  return (
    <Alert severity="warning" icon={<HourglassIcon />} sx={{ m: 2, mb: 0 }} data-testid="mission-reward-waiting-banner">
      <AlertTitle>{translate('brakes.rewardWaiting')}</AlertTitle>
      {translate('brakes.rewardWaitingText', {
        reward,
        when: [asker?.username, formatWhen(waiting.requestedAt, locales)].filter(Boolean).join(', '),
      })}
      <ApproveOrReject
        labels={REWARD_DECISION}
        onPage
        own={identity?.id !== undefined && String(identity.id) === waiting.requestedBy}
        approveContent={translate('brakes.confirmReward', { reward })}
        approve={() => decide('approve')}
        approved="brakes.rewardApproved"
        reject={(reason) => decide('reject', reason)}
        rejected="brakes.rewardRejected"
      />
    </Alert>
  );
}
