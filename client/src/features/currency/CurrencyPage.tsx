import { useFormat } from '../../lib/format';
import { useTranslation } from '../../lib/translator';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { CoinIcon } from '../../ui/identity';
import { PageHeader } from '../../ui/PageHeader';
import { QueryList } from '../../ui/QueryList';
import './locales';

function CoinRow({ coin }: { coin: RouterOutputs['home']['currency'][number] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li className="list-row">
      <CoinIcon coin={coin} />
      <div className="grow">
        <div className="title">{coin.name}</div>
        <div className="muted">
          <bdi dir="ltr">
            {format.amount(coin.balance)} {coin.symbol}
          </bdi>
        </div>
        {coin.staked !== '0' && (
          // coins locked in stakes are still the player's: said beside the balance, with the two together
          <div className="muted" data-testid="in-stakes">
            {t('currency.inStakes', { amount: coin.staked, symbol: coin.symbol })}
            {t('common.separator')}
            {t('currency.total', { amount: coin.total, symbol: coin.symbol })}
          </div>
        )}
      </div>
      <div className="value">
        <bdi dir="ltr">{coin.value === null ? '—' : `$${format.amount(coin.value)}`}</bdi>
      </div>
    </li>
  );
}

/** Every coin with the player's balance, what is locked in stakes and the total, and, when it has a price, its value in USD. */
export function CurrencyPage() {
  const { t } = useTranslation();
  const coins = trpc.home.currency.useQuery();
  return (
    <section className="page">
      <PageHeader title={t('currency.title')} />
      <QueryList query={coins} rows={3}>
        {(coin) => <CoinRow key={coin.id} coin={coin} />}
      </QueryList>
    </section>
  );
}
