import { Link } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { useFormat } from '../../lib/format';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { CoinIcon } from '../../ui/identity';
import { PageHeader } from '../../ui/PageHeader';
import { StakePositions } from './components/StakePositions';
import { QueryList } from '../../ui/QueryList';
import './locales';

function OfferRow({ offer }: { offer: RouterOutputs['staking']['offers'][number] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li>
      <Link className="list-row offer" to={`/staking/${offer.id}`}>
        <CoinIcon coin={offer.coin} />
        <div className="grow">
          <div className="title">
            {offer.coin.name} <span className="muted">{offer.coin.symbol}</span>
          </div>
          <ul className="chips">
            {offer.durations.map((d) => (
              <li key={d.duration}>
                {t(`staking.durations.${d.duration}`)}
                {t('common.separator')}
                <bdi dir="ltr">{format.amount(d.percent)}%</bdi>
              </li>
            ))}
          </ul>
        </div>
        <span className="button button-small">{t('staking.stake')}</span>
      </Link>
    </li>
  );
}

/** The offers: each coin with its durations and their profit. */
function Offers() {
  const { t } = useTranslation();
  const offers = trpc.staking.offers.useQuery();
  return (
    <>
      <h2>{t('staking.offers')}</h2>
      <QueryList query={offers} rows={3} empty={t('staking.noOffers')}>
        {(offer) => <OfferRow key={offer.id} offer={offer} />}
      </QueryList>
    </>
  );
}

/** /staking: the offers and the player's stakes. */
export function StakingPage() {
  const { t } = useTranslation();
  return (
    <section className="page">
      <PageHeader title={t('staking.title')} />
      <Offers />
      <StakePositions />
    </section>
  );
}
