import { useSingleFlight } from '../../../ui/useSingleFlight';
import { useFormat } from '../../../lib/format';
import { useTranslation } from '../../../lib/translator';
import { useBalancesChanged } from '../../../lib/balances';
import { trpc, type RouterOutputs } from '../../../lib/trpc';
import { useNow } from '../../../ui/countdown';
import { errorText } from '../../../ui/ErrorMessage';
import { useToast } from '../../../ui/toast';
import { QueryList } from '../../../ui/QueryList';
import '../locales';

type Position = RouterOutputs['staking']['positions'][number];

function PositionRow({ position, now }: { position: Position; now: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const toast = useToast();
  const utils = trpc.useUtils();
  const balancesChanged = useBalancesChanged();
  const claim = trpc.staking.claim.useMutation({
    onSuccess: async (result) => {
      toast(t('staking.claimedToast', { amount: result.total, symbol: position.coin.symbol }), 'success');
      await balancesChanged();
    },
    onError: (error) => toast(errorText(t, error), 'error'),
    onSettled: () => utils.staking.positions.invalidate(),
  });
  const flight = useSingleFlight();
  const left = new Date(position.unlocksAt).getTime() - now;
  return (
    <li className="list-row" id={`stake-${position.id}`} data-testid="stake-position">
      <div className="grow">
        <div className="title">
          <bdi dir="ltr">
            {format.amount(position.amount)} {position.coin.symbol}
          </bdi>
          {t('common.separator')}
          {t(`staking.durations.${position.duration}`)}
        </div>
        <div className="muted">
          {t('staking.payout')}:{' '}
          <bdi dir="ltr">
            {format.amount(position.total)} {position.coin.symbol}
          </bdi>{' '}
          (<bdi dir="ltr">+{format.amount(position.profit)}</bdi>)
        </div>
        {!position.claimedAt && left > 0 && (
          <div className="muted" role="timer">
            {t('staking.unlocksIn', { time: format.countdown(left) })}
          </div>
        )}
      </div>
      {position.claimedAt ? (
        <span className="badge">{t('staking.claimed')}</span>
      ) : left <= 0 ? (
        <button
          type="button"
          className="button button-small"
          disabled={flight.busy}
          onClick={() => flight.run((done) => claim.mutate({ stakeId: position.id }, { onSettled: done }))}
        >
          {t('staking.claim')}
        </button>
      ) : null}
    </li>
  );
}

/** The player's stakes: a countdown to unlock, then Claim. */
export function StakePositions() {
  const { t } = useTranslation();
  const positions = trpc.staking.positions.useQuery();
  // ticks while a stake is unclaimed: the clock itself tells a locked stake from an unlocked one
  const now = useNow(positions.data?.some((p) => !p.claimedAt) ?? false);
  return (
    <>
      <h2 id="stakes">{t('staking.positions')}</h2>
      <QueryList query={positions} rows={2} empty={t('staking.noPositions')}>
        {(position) => <PositionRow key={position.id} position={position} now={now} />}
      </QueryList>
    </>
  );
}
