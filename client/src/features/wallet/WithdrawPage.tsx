import { typedAmount } from '@gift/shared/numerals';
import { useSingleFlight } from '../../ui/useSingleFlight';
import { useFormat } from '../../lib/format';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { formatMessage } from '@gift/shared/formatMessage';
import { MONEY_DECIMALS } from '@gift/shared/money';
import { amountTypo } from '../../lib/amountTypo';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { AmountField } from '../../ui/fields';
import { CoinIcon } from '../../ui/identity';
import { shortAddress } from './address';
import { amountProblem, balanceBelowMinimum, maxAmount } from './amount';
import { ConnectWalletButton } from './components/ConnectWalletButton';
import { WithdrawalHistory } from './components/WithdrawalHistory';
import { LinkOutcomeMessage, WalletConnection } from './WalletConnection';
import { newIdempotencyKey } from '@gift/shared/idempotency';

type WithdrawableCoin = RouterOutputs['withdrawals']['coins'][number];

function useMinimumMessage() {
  const { t } = useTranslation();
  return (coin: WithdrawableCoin) => formatMessage(t('errors.WITHDRAW_MINIMUM'), { amount: coin.minimum, symbol: coin.symbol });
}

function CoinChoice({
  coins,
  chosen,
  onChoose,
}: {
  coins: WithdrawableCoin[];
  chosen: WithdrawableCoin | undefined;
  onChoose: (coinId: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <ul className="list" aria-label={t('withdraw.coin')}>
      {coins.map((coin) => (
        <li key={coin.coinId}>
          <button
            type="button"
            className="list-row coin-choice"
            aria-pressed={coin.coinId === chosen?.coinId}
            onClick={() => onChoose(coin.coinId)}
          >
            <CoinIcon coin={coin} />
            <span className="grow">
              <span className="title">{coin.name}</span>
              <span className="muted">
                {t('withdraw.minimum')}:{' '}
                <bdi dir="ltr">
                  {format.amount(coin.minimum)} {coin.symbol}
                </bdi>
              </span>
            </span>
            <span className="value" aria-label={t('withdraw.balance')}>
              <bdi dir="ltr">
                {format.amount(coin.balance)} {coin.symbol}
              </bdi>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

type Requested = RouterOutputs['withdrawals']['request'];

function WithdrawForm({
  coin,
  address,
  onRequested,
}: {
  coin: WithdrawableCoin;
  address: string;
  onRequested: (withdrawal: Requested | null) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const minimumMessage = useMinimumMessage();
  const utils = trpc.useUtils();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ amount: string; key: string } | null>(null);
  const flight = useSingleFlight();
  const request = trpc.withdrawals.request.useMutation({
    onSuccess: (withdrawal) => {
      setConfirming(null);
      setAmount('');
      onRequested(withdrawal);
      void Promise.all([utils.withdrawals.coins.invalidate(), utils.withdrawals.history.invalidate(), utils.user.me.invalidate()]);
    },
    onError: () => setConfirming(null),
  });

  if (balanceBelowMinimum(coin)) {
    return (
      <p className="error-text" role="alert">
        {minimumMessage(coin)}
      </p>
    );
  }

  const review = (event: FormEvent) => {
    event.preventDefault();
    request.reset();
    onRequested(null);
    const typed = typedAmount(amount);
    const typo = amountTypo(typed);
    if (typo) return setProblem(t(`common.amountTypos.${typo}`, { decimals: MONEY_DECIMALS }));
    const found = amountProblem(typed, coin);
    if (found) return setProblem(t(`withdraw.${found}`, { decimals: String(coin.decimals), symbol: coin.symbol, amount: coin.minimum }));
    setProblem(null);
    setConfirming({ amount: typed, key: newIdempotencyKey() });
  };

  return (
    <form className="stack" onSubmit={review} noValidate>
      <AmountField
        label={t('withdraw.amount')}
        error={problem}
        name="amount"
        value={amount}
        onChange={(typed) => {
          // read as a whole when reviewed
          setAmount(typed);
          setProblem(null);
          setConfirming(null);
        }}
        maxLabel={t('withdraw.max')}
        onMax={() => setAmount(format.typedAmount(maxAmount(coin.balance, coin.decimals)))}
      />
      {!confirming && (
        <button type="submit" className="button">
          {t('withdraw.submit')}
        </button>
      )}
      {confirming && (
        <div className="card confirm" role="alertdialog" aria-label={t('withdraw.confirmTitle')}>
          <h3>{t('withdraw.confirmTitle')}</h3>
          <p>{t('withdraw.confirmText', { amount: confirming.amount, symbol: coin.symbol })}</p>
          <p>
            <bdi dir="ltr" className="mono full-address" data-testid="confirm-address">
              {address}
            </bdi>
          </p>
          <div className="wallet-actions">
            <button
              type="button"
              className="button"
              disabled={flight.busy}
              onClick={() =>
                flight.run((done) =>
                  request.mutate({ coinId: coin.coinId, amount: confirming.amount, idempotencyKey: confirming.key }, { onSettled: done }),
                )
              }
            >
              {t('withdraw.confirm')}
            </button>
            <button type="button" className="button button-ghost" onClick={() => setConfirming(null)}>
              {t('wallet.cancel')}
            </button>
          </div>
        </div>
      )}
      {request.error && <ErrorMessage error={request.error} />}
    </form>
  );
}

function Withdraw() {
  const { t } = useTranslation();
  const wallets = trpc.wallet.list.useQuery();
  const coins = trpc.withdrawals.coins.useQuery();
  const [chosenId, setChosenId] = useState<string | null>(null);
  // shown beside the history, since the form gives way to the minimum's message when the balance runs low
  const [requested, setRequested] = useState<Requested | null>(null);
  // the server pays to the wallet linked last, which the list gives first
  const wallet = wallets.data?.[0];
  // opens on a coin the player can withdraw (the first with at least its minimum), not on one they hold none of
  const chosen =
    coins.data?.find((coin) => coin.coinId === chosenId) ?? coins.data?.find((coin) => !balanceBelowMinimum(coin)) ?? coins.data?.[0];

  return (
    <section className="page">
      <PageHeader title={t('withdraw.title')} backTo="/profile" />
      <LinkOutcomeMessage />
      {(wallets.error || coins.error) && <ErrorMessage error={wallets.error ?? coins.error} />}
      {wallets.data && !wallet && (
        <div className="card stack">
          <p className="error-text" role="alert">
            {t('errors.WALLET_REQUIRED')}
          </p>
          <ConnectWalletButton />
        </div>
      )}
      {wallet && (
        <div className="list-row">
          <span className="grow">
            <span className="muted">{t('withdraw.to')} </span>
            <bdi dir="ltr" className="mono" data-testid="withdraw-wallet">
              {shortAddress(wallet.address)}
            </bdi>
          </span>
          <Link to="/profile/my-wallets">{t('withdraw.changeWallet')}</Link>
        </div>
      )}
      {coins.data?.length === 0 && <p className="muted">{t('withdraw.noCoins')}</p>}
      {coins.data && coins.data.length > 0 && <CoinChoice coins={coins.data} chosen={chosen} onChoose={setChosenId} />}
      {wallet && chosen && <WithdrawForm key={chosen.coinId} coin={chosen} address={wallet.address} onRequested={setRequested} />}
      {requested && (
        <p className="notice" role="status">
          {t('withdraw.requested', { amount: requested.amount, symbol: requested.coin?.symbol ?? '' })}
        </p>
      )}
      <WithdrawalHistory />
    </section>
  );
}

/** Withdraw a coin to the player's linked TON wallet; an operator pays it out. */
export function WithdrawPage() {
  return (
    <WalletConnection>
      <Withdraw />
    </WalletConnection>
  );
}
