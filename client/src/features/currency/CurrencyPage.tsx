import { useFormat } from '../../lib/format';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { Skeleton } from '../../ui/Skeleton';

/** Every coin with the player's balance and, when it has a price, its value in USD. */
export function CurrencyPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const coins = trpc.home.currency.useQuery();
  return (
    <section className="page">
      <PageHeader title={t('currency.title')} />
      {coins.error && <ErrorMessage error={coins.error} />}
      {coins.isPending && <Skeleton rows={3} />}
      {coins.data && (
        <ul className="list">
          {coins.data.map((coin) => (
            <li key={coin.id} className="list-row">
              {coin.icon ? (
                <img src={coin.icon} alt="" loading="lazy" />
              ) : (
                <div className="avatar coin-avatar" aria-hidden="true">
                  {coin.symbol.slice(0, 1)}
                </div>
              )}
              <div className="grow">
                <div className="title">{coin.name}</div>
                <div className="muted">
                  <bdi dir="ltr">
                    {format.amount(coin.balance)} {coin.symbol}
                  </bdi>
                </div>
              </div>
              <div className="value">
                <bdi dir="ltr">{coin.value === null ? '—' : `$${format.amount(coin.value)}`}</bdi>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
