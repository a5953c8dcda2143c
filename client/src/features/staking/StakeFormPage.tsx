import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AMOUNT_PATTERN, toMicros } from '@gift/shared/money';
import { useBalancesChanged } from '../../lib/balances';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { ErrorMessage, errorText } from '../../ui/ErrorMessage';
import { NotFoundNotice } from '../../ui/NotFoundNotice';
import { PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/toast';
import { StakePositions } from './components/StakePositions';
import { newIdempotencyKey } from '@gift/shared/idempotency';

type Offer = RouterOutputs['staking']['offers'][number];

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const isAmount = (value: string) => AMOUNT_PATTERN.test(value) && toMicros(value) > 0n;

function StakeForm({ offer }: { offer: Offer }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const utils = trpc.useUtils();
  const balancesChanged = useBalancesChanged();
  const [amount, setAmount] = useState('');
  const [duration, setDuration] = useState(offer.durations[0]?.duration ?? 'week');
  const tapKey = useRef(newIdempotencyKey());
  // React's isPending lags a render behind a double tap: this lock does not
  const inFlight = useRef(false);
  const quotedAmount = useDebounced(amount.trim(), 300);
  const quote = trpc.staking.quote.useQuery(
    { stakingCoinId: offer.id, amount: quotedAmount, duration },
    { enabled: isAmount(quotedAmount), retry: false },
  );
  const stake = trpc.staking.stake.useMutation({
    onSuccess: async (position) => {
      toast(t('staking.staked', { amount: position.amount, symbol: position.coin.symbol }), 'success');
      tapKey.current = newIdempotencyKey();
      setAmount('');
      await Promise.all([utils.staking.positions.invalidate(), balancesChanged()]);
    },
    onError: (error) => toast(errorText(t, error), 'error'),
  });
  const symbol = offer.coin.symbol;
  const quoted = quote.data && quotedAmount === amount.trim() ? quote.data : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current || !quoted) return;
    inFlight.current = true;
    stake.mutate(
      { stakingCoinId: offer.id, amount: quoted.amount, duration, idempotencyKey: tapKey.current },
      {
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  return (
    <>
      <form className="card menu" onSubmit={onSubmit}>
        <label className="field">
          <span>{t('staking.amount')}</span>
          <div className="input-with-button">
            <input
              inputMode="decimal"
              dir="ltr"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              placeholder="0"
              autoComplete="off"
            />
            <button type="button" className="button button-ghost button-small" onClick={() => setAmount(offer.balance)}>
              {t('staking.max')}
            </button>
          </div>
        </label>
        <p className="muted">
          {t('staking.balance', { amount: offer.balance, symbol })} ·{' '}
          {t('staking.bounds', { min: offer.minAmount, max: offer.maxAmount, symbol })}
        </p>
        <div className="field">
          <span id="duration-label">{t('staking.duration')}</span>
          <div className="segmented wrap" role="group" aria-labelledby="duration-label">
            {offer.durations.map((d) => (
              <button key={d.duration} type="button" aria-pressed={duration === d.duration} onClick={() => setDuration(d.duration)}>
                {t(`staking.durations.${d.duration}`)}
                <small>
                  <bdi dir="ltr">{d.percent}%</bdi>
                </small>
              </button>
            ))}
          </div>
        </div>
        {!isAmount(amount.trim()) && <p className="muted">{t('staking.enterAmount')}</p>}
        {quote.error && quotedAmount === amount.trim() && <ErrorMessage error={quote.error} />}
        {quoted && (
          <dl className="quote" data-testid="stake-quote">
            <dt>{t('staking.profit')}</dt>
            <dd>
              <bdi dir="ltr">
                +{quoted.profit} {symbol} ({quoted.percent}%)
              </bdi>
            </dd>
            <dt>{t('staking.payout')}</dt>
            <dd>
              <bdi dir="ltr">
                {quoted.total} {symbol}
              </bdi>
            </dd>
            <dt>{t('staking.unlocks')}</dt>
            <dd>{new Date(quoted.unlocksAt).toLocaleString(i18n.language)}</dd>
          </dl>
        )}
        <button type="submit" className="button" disabled={!quoted || stake.isPending}>
          {t('staking.confirm')}
        </button>
      </form>
      {stake.data && (
        <div className="notice" role="status" data-testid="new-stake">
          {t('staking.staked', { amount: stake.data.amount, symbol: stake.data.coin.symbol })} ·{' '}
          {t(`staking.durations.${stake.data.duration}`)}
          {' · '}
          <Link to="/staking">{t('staking.positions')}</Link>
        </div>
      )}
    </>
  );
}

/** /staking/:id: the stake form of one offer, with the server's quote before the player confirms. */
export function StakeFormPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const offers = trpc.staking.offers.useQuery();
  const offer = offers.data?.find((o) => o.id === id);
  if (offers.data && !offer) return <NotFoundNotice title={t('staking.title')} text={t('staking.notFound')} backTo="/staking" />;
  return (
    <section className="page">
      <PageHeader title={offer ? `${t('staking.stake')} ${offer.coin.symbol}` : t('staking.title')} backTo="/staking" />
      {offers.isPending && <p className="muted">{t('common.loading')}</p>}
      {offers.error && <ErrorMessage error={offers.error} />}
      {offer && <StakeForm key={offer.id} offer={offer} />}
      {offer && <StakePositions />}
    </section>
  );
}
