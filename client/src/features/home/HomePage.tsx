import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../lib/trpc';
import { openLink } from '../../lib/telegram';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { useSession } from '../signIn/PlayerSession';

interface HomeCategory {
  id: string;
  title: string;
  description?: string;
  image?: string;
  missionsCount?: number;
  doneMissionsCount?: number;
}
interface HomeBanner {
  id: string;
  title?: string;
  name?: string;
  image: string;
  link?: string;
}
interface HomeView {
  covers?: HomeBanner[];
  partners?: HomeBanner[];
  categories: HomeCategory[];
}

// home.get belongs to the economy work; read it by shape so the shell builds before and after it lands
const homeQuery = trpc.home as unknown as { get: { useQuery: () => UseQueryResult<HomeView> } };

function Banner({ banner }: { banner: HomeBanner }) {
  const image = <img src={banner.image} alt={banner.title ?? banner.name ?? ''} loading="lazy" />;
  if (!banner.link) return <div>{image}</div>;
  return (
    <a href={banner.link} onClick={(event) => { event.preventDefault(); openLink(banner.link!); }}>
      {image}
    </a>
  );
}

function CategoryRow({ category }: { category: HomeCategory }) {
  const { t } = useTranslation();
  const total = category.missionsCount ?? 0;
  const done = category.doneMissionsCount ?? 0;
  return (
    <li>
      <Link className="list-row" to={`/categories/${category.id}/missions`}>
        {category.image && <img src={category.image} alt="" loading="lazy" />}
        <div className="grow">
          <div className="title">{category.title}</div>
          {total > 0 && (
            <>
              <div className="muted">{t('home.missions', { done, total })}</div>
              <div className="progress" aria-hidden="true">
                <span style={{ width: `${Math.round((done / total) * 100)}%` }} />
              </div>
            </>
          )}
        </div>
      </Link>
    </li>
  );
}

/** Home: covers, categories with the player's progress, partners. */
export function HomePage() {
  const { t } = useTranslation();
  const { player } = useSession();
  const home = homeQuery.get.useQuery();
  return (
    <section className="page">
      <PageHeader title={t('home.title')}>
        <span className="muted">{t('home.hello', { name: player.name || player.username })}</span>
      </PageHeader>
      {home.error && <ErrorMessage error={home.error} />}
      {home.isPending && <p className="muted">{t('common.loading')}</p>}
      {!!home.data?.covers?.length && (
        <div className="covers">
          {home.data.covers.map((cover) => <Banner key={cover.id} banner={cover} />)}
        </div>
      )}
      {home.data && (
        <>
          <h2>{t('home.categories')}</h2>
          {home.data.categories.length === 0 ? (
            <p className="muted">{t('home.noCategories')}</p>
          ) : (
            <ul className="list">
              {home.data.categories.map((category) => <CategoryRow key={category.id} category={category} />)}
            </ul>
          )}
        </>
      )}
      {!!home.data?.partners?.length && (
        <>
          <h2>{t('home.partners')}</h2>
          <div className="covers">
            {home.data.partners.map((partner) => <Banner key={partner.id} banner={partner} />)}
          </div>
        </>
      )}
    </section>
  );
}
