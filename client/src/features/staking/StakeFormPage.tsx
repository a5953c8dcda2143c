import { useFormat } from '../../lib/format';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { AMOUNT_PATTERN, MONEY_DECIMALS, toMicros } from '@gift/shared/money';
import { amountTypo } from '../../lib/amountTypo';
import { typedAmount } from '@gift/shared/numerals';
import { stakeAmountRefusal } from '@gift/shared/staking';
import { useSingleFlight } from '../../ui/useSingleFlight';
import { useBalancesChanged } from '../../lib/balances';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { ErrorMessage, errorText } from '../../ui/ErrorMessage';
import { NotFoundNotice } from '../../ui/NotFoundNotice';
import { PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/toast';
import { StakePositions } from './components/StakePositions';
import { newIdempotencyKey } from '@gift/shared/idempotency';
import { Skeleton } from '../../ui/Skeleton';
import { AmountField, ChoiceField } from '../../ui/fields';
import './locales';

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
const smaller = (a: string, b: string) => (toMicros(a) <= toMicros(b) ? a : b);

function StakeForm({ offer }: { offer: Offer }) {
  const { t } = useTranslation();
  const format = useFormat();
  const toast = useToast();
  const utils = trpc.useUtils();
  const balancesChanged = useBalancesChanged();
  // what the player typed, as typed (Persian digits, a decimal comma); read as an amount only as a whole
  const [typed, setTyped] = useState('');
  const [duration, setDuration] = useState(offer.durations[0]?.duration ?? 'week');
  const [confirming, setConfirming] = useState(false);
  const tapKey = useRef(newIdempotencyKey());
  const flight = useSingleFlight();
  const amount = typedAmount(typed);
  // the offer's bounds and the balance, checked as the player types: Confirm stays off and says why
  const refusal = isAmount(amount)
    ? stakeAmountRefusal(toMicros(amount), toMicros(offer.minAmount), toMicros(offer.maxAmount), toMicros(offer.balance))
    : null;
  const typo = amountTypo(amount);
  const quotedAmount = useDebounced(refusal ? '' : amount, 300);
  const quote = trpc.staking.quote.useQuery(
    { stakingCoinId: offer.id, amount: quotedAmount, duration },
    { enabled: isAmount(quotedAmount), retry: false },
  );
  const stake = trpc.staking.stake.useMutation({
    onSuccess: async (position) => {
      toast(t('staking.staked', { amount: position.amount, symbol: position.coin.symbol }), 'success');
      tapKey.current = newIdempotencyKey();
      setTyped('');
      setConfirming(false);
      await Promise.all([utils.staking.positions.invalidate(), balancesChanged()]);
    },
    onError: (error) => {
      setConfirming(false);
      toast(errorText(t, error), 'error');
    },
  });
  const symbol = offer.coin.symbol;
  const quoted = quote.data && !refusal && quotedAmount === amount ? quote.data : null;

  const edit = (next: string) => {
    setTyped(next);
    setConfirming(false);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (quoted) setConfirming(true);
  };
  const lock = () => {
    if (!quoted) return;
    flight.run((done) =>
      stake.mutate({ stakingCoinId: offer.id, amount: quoted.amount, duration, idempotencyKey: tapKey.current }, { onSettled: done }),
    );
  };

  return (
    <>
      <form className="card menu" onSubmit={onSubmit} noValidate>
        <AmountField
          label={t('staking.amount')}
          hint={`${t('staking.balance', { amount: offer.balance, symbol })}${t('common.separator')}${t('staking.bounds', { min: offer.minAmount, max: offer.maxAmount, symbol })}`}
          error={refusal ? t(`errors.${refusal}`) : typo && t(`common.amountTypos.${typo}`, { decimals: MONEY_DECIMALS })}
          value={typed}
          onChange={edit}
          maxLabel={t('staking.max')}
          onMax={() => edit(format.typedAmount(smaller(offer.balance, offer.maxAmount)))}
        />
        <ChoiceField
          id="duration-label"
          label={t('staking.duration')}
          wrap
          choices={offer.durations.map((d) => ({
            value: d.duration,
            label: (
              <>
                {t(`staking.durations.${d.duration}`)}
                <small>
                  <bdi dir="ltr">{format.amount(d.percent)}%</bdi>
                </small>
              </>
            ),
          }))}
          chosen={duration}
          onChoose={(chosen) => {
            setDuration(chosen);
            setConfirming(false);
          }}
        />
        {!isAmount(amount) && !typo && <p className="muted">{t('staking.enterAmount')}</p>}
        {quote.error && quotedAmount === amount && <ErrorMessage error={quote.error} />}
        {quoted && (
          <dl className="quote" data-testid="stake-quote">
            <dt>{t('staking.profit')}</dt>
            <dd>
              <bdi dir="ltr">
                +{format.amount(quoted.profit)} {symbol} ({format.amount(quoted.percent)}%)
              </bdi>
            </dd>
            <dt>{t('staking.payout')}</dt>
            <dd>
              <bdi dir="ltr">
                {format.amount(quoted.total)} {symbol}
              </bdi>
            </dd>
            <dt>{t('staking.unlocks')}</dt>
            <dd>{format.dateTime(quoted.unlocksAt)}</dd>
          </dl>
        )}
        {!confirming && (
          <button type="submit" className="button" disabled={!quoted}>
            {t('staking.confirm')}
          </button>
        )}
        {confirming && quoted && (
          <div className="card confirm" role="alertdialog" aria-label={t('staking.confirmTitle')}>
            <h3>{t('staking.confirmTitle')}</h3>
            <p>
              {t('staking.confirmText', {
                amount: quoted.amount,
                total: quoted.total,
                symbol,
                duration: t(`staking.durations.${duration}`),
                date: format.dateTime(quoted.unlocksAt),
              })}
            </p>
            <div className="wallet-actions">
              <button type="button" className="button" disabled={flight.busy} onClick={lock}>
                {t('staking.lock')}
              </button>
              <button type="button" className="button button-ghost" disabled={flight.busy} onClick={() => setConfirming(false)}>
                {t('staking.cancel')}
              </button>
            </div>
          </div>
        )}
      </form>
      {stake.data && (
        <div className="notice" role="status" data-testid="new-stake">
          {t('staking.staked', { amount: stake.data.amount, symbol: stake.data.coin.symbol })}
          {t('common.separator')}
          {t(`staking.durations.${stake.data.duration}`)}
          {t('common.separator')}
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
      {offers.isPending && <Skeleton shape="form" />}
      {offers.error && <ErrorMessage error={offers.error} />}
      {offer && <StakeForm key={offer.id} offer={offer} />}
      {offer && <StakePositions />}
    </section>
  );
}
