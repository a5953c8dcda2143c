import { MissionRowText } from '../missions/MissionRowText';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { trpc } from '../../lib/trpc';
import { openLink } from '../../lib/telegramLinks';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { useSession } from '../signIn/PlayerSession';
import { CategoryRow } from './components/CategoryRow';
import { MiningCard } from '../mining/MiningCard';
import { Balances } from './components/Balances';
import { Skeleton } from '../../ui/Skeleton';
import { shellCover, ShellCoverStrip } from '../../ui/shellCover';
import { TodayCard } from './components/TodayCard';
import { LeagueCard } from '../leagues/LeagueCard';

type HomeBanner = { id: string; image: string; link: string; title?: string; name?: string };

/** A cover or a partner; the first cover is the page's largest picture, so it loads first instead of lazily. */
function Banner({ banner, first = false }: { banner: HomeBanner; first?: boolean }) {
  const image = (
    <img
      src={banner.image}
      alt={banner.title ?? banner.name ?? ''}
      loading={first ? 'eager' : 'lazy'}
      {...(first ? { fetchPriority: 'high' as const } : {})}
    />
  );
  if (!banner.link) return <div>{image}</div>;
  return (
    <a
      href={banner.link}
      onClick={(event) => {
        event.preventDefault();
        openLink(banner.link);
      }}
    >
      {image}
    </a>
  );
}

/** Home: covers, balances, mining, the ⭐ missions still to do, today's daily missions and streak, categories with the player's progress, partners. */
export function HomePage() {
  const { t } = useTranslation();
  const { player } = useSession();
  const home = trpc.home.get.useQuery();
  // the cover the page's shell painted, kept in place until home's own covers arrive
  const firstCover = shellCover();
  return (
    <section className="page">
      <PageHeader title={t('home.title')}>
        <span className="muted">{t('home.hello', { name: player.name || player.username })}</span>
      </PageHeader>
      {home.error && <ErrorMessage error={home.error} />}
      {home.isPending && (firstCover ? <ShellCoverStrip cover={firstCover} /> : <Skeleton shape="covers" />)}
      {!!home.data?.covers?.length && (
        <div className="covers">
          {home.data.covers.map((cover, index) => (
            <Banner key={cover.id} banner={cover} first={index === 0} />
          ))}
        </div>
      )}
      <Balances />
      <MiningCard />
      <LeagueCard />
      {home.isPending && <Skeleton rows={4} />}
      {!!home.data?.starMissions.length && (
        <>
          <h2>{t('home.starMissions')}</h2>
          <ul className="list">
            {home.data.starMissions.map((mission) => (
              <li key={mission.id}>
                <Link className="list-row" to={`/tasks/${mission.id}`}>
                  <span aria-hidden="true">⭐</span>
                  <MissionRowText mission={{ ...mission, mustDone: false }} />
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      {home.data && <TodayCard daily={home.data.daily} streak={home.data.streak} />}
      {home.data && (
        <>
          <div className="section-title">
            <h2>{t('home.categories')}</h2>
            {home.data.categories.length > 0 && <Link to="/categories">{t('home.allCategories')}</Link>}
          </div>
          {home.data.categories.length === 0 ? (
            <p className="muted">{t('home.noCategories')}</p>
          ) : (
            <ul className="list">
              {home.data.categories.map((category) => (
                <CategoryRow key={category.id} category={category} fromHome />
              ))}
            </ul>
          )}
        </>
      )}
      {!!home.data?.partners?.length && (
        <>
          <h2>{t('home.partners')}</h2>
          <div className="covers">
            {home.data.partners.map((partner) => (
              <Banner key={partner.id} banner={partner} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
