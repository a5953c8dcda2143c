import { Alert } from '@mui/material';
import { useGetMany, useRecordContext, useTranslate } from 'react-admin';
import { useConsoleCalls, type ConfigReward } from '../../dataProvider';
import { ApproveOrReject, REWARD_DECISION } from '../ApproveOrReject';

interface Waiting {
  id: string;
  requestedBy: string;
  coin?: string;
  amount?: string;
  milestones?: { days: number; coin: string; amount: string }[];
  premiumRewardPercent?: number;
  hours?: number;
}
type ConfigRecord = { waitingRewards?: Partial<Record<ConfigReward, Waiting | null>> };

/** One waiting App Config reward with its decision, each confirmed first (the operator who asked may only withdraw it). */
function WaitingReward({ kind, waiting }: { kind: ConfigReward; waiting: Waiting }) {
  const calls = useConsoleCalls();
  const translate = useTranslate();
  const coinIds = [...new Set([waiting.coin, ...(waiting.milestones ?? []).map((m) => m.coin)].filter((id): id is string => !!id))];
  const { data: coins = [] } = useGetMany<{ id: string; symbol: string }>('gift-coins', { ids: coinIds });
  const symbol = (id?: string) => coins.find((c) => c.id === id)?.symbol ?? '';
  const amount = `${waiting.amount ?? ''} ${symbol(waiting.coin)}`.trim();
  const premium =
    waiting.premiumRewardPercent && waiting.premiumRewardPercent > 100
      ? translate('brakes.configPremiumWaiting', { percent: waiting.premiumRewardPercent })
      : '';
  const text =
    kind === 'referral'
      ? translate('brakes.configReferralWaiting', { amount }) + premium
      : kind === 'mining'
        ? translate('brakes.configMiningWaiting', { amount, hours: waiting.hours ?? '' })
        : translate('brakes.configMilestonesWaiting', {
            list: (waiting.milestones ?? []).map((m) => `${m.days}: ${m.amount} ${symbol(m.coin)}`.trim()).join(', '),
          });
  return (
    <Alert severity="warning" sx={{ mb: 2, width: '100%' }} data-testid={`config-reward-waiting-${kind}`}>
      {text}
      <ApproveOrReject
        labels={REWARD_DECISION}
        onPage
        requestedBy={waiting.requestedBy}
        approveContent={text}
        approve={() => calls.decideConfigReward(kind, { id: waiting.id })}
        reject={(rejectReason) => calls.decideConfigReward(kind, { id: waiting.id, rejectReason })}
      />
    </Alert>
  );
}

/** App Config's rewards (referral, streak milestones, mining) set above their coin's threshold, waiting for a second operator. */
export function ConfigRewardsWaiting() {
  const record = useRecordContext<ConfigRecord>();
  const waiting = record?.waitingRewards ?? {};
  return (
    <>
      {(['referral', 'streakMilestones', 'mining'] as const).map((kind) => {
        const one = waiting[kind];
        return one ? <WaitingReward key={one.id} kind={kind} waiting={one} /> : null;
      })}
    </>
  );
}
