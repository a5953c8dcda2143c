import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { StakePositions } from './components/StakePositions';
import { Skeleton } from '../../ui/Skeleton';

/** /staking: the offers (coin, durations and their profit) and the player's stakes. */
export function StakingPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const offers = trpc.staking.offers.useQuery();
  return (
    <section className="page">
      <PageHeader title={t('staking.title')} />
      <h2>{t('staking.offers')}</h2>
      {offers.isPending && <Skeleton rows={3} />}
      {offers.error && <ErrorMessage error={offers.error} />}
      {offers.data?.length === 0 && <p className="muted">{t('staking.noOffers')}</p>}
      {!!offers.data?.length && (
        <ul className="list">
          {offers.data.map((offer) => (
            <li key={offer.id}>
              <Link className="list-row offer" to={`/staking/${offer.id}`}>
                {offer.coin.icon ? (
                  <img src={offer.coin.icon} alt="" loading="lazy" />
                ) : (
                  <div className="avatar coin-avatar" aria-hidden="true">
                    {offer.coin.symbol.slice(0, 1)}
                  </div>
                )}
                <div className="grow">
                  <div className="title">
                    {offer.coin.name} <span className="muted">{offer.coin.symbol}</span>
                  </div>
                  <ul className="chips">
                    {offer.durations.map((d) => (
                      <li key={d.duration}>
                        {t(`staking.durations.${d.duration}`)} · <bdi dir="ltr">{format.amount(d.percent)}%</bdi>
                      </li>
                    ))}
                  </ul>
                </div>
                <span className="button button-small">{t('staking.stake')}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <StakePositions />
    </section>
  );
}
