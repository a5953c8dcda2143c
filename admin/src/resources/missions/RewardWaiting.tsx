import { Chip } from '@mui/material';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import { useGetOne, useRecordContext, useTranslate } from 'react-admin';
import { useConsoleCalls } from '../../dataProvider';
import { REWARD_DECISION } from '../ApproveOrReject';
import { WaitingBanner, type Asked, type WaitingKind } from '../ChangeWaiting';

/** A reward change waiting for a second operator, as the server shows it on a mission. */
type Waiting = Asked & { reward: string; coin: string };
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

const REWARD: WaitingKind = {
  labels: REWARD_DECISION,
  title: 'brakes.rewardWaiting',
  text: 'brakes.rewardWaitingText',
  confirm: 'brakes.confirmReward',
  testId: 'mission-reward-waiting-banner',
};

/** On a mission's page: the reward change that waits for a second operator, and the decision. */
export function RewardWaiting() {
  const record = useRecordContext<WithWaiting>();
  const calls = useConsoleCalls();
  const waiting = record?.waiting;
  const { data: coin } = useGetOne<{ id: string; symbol: string }>('gift-coins', { id: waiting?.coin ?? '' }, { enabled: !!waiting });
  if (!record || !waiting) return null;
  return (
    <WaitingBanner
      kind={REWARD}
      waiting={waiting}
      subject={{ reward: `${waiting.reward} ${coin?.symbol ?? ''}`.trim() }}
      decide={(decision) => calls.decideMissionReward(record.id, decision)}
    />
  );
}
