import { MissionRowText } from '../missions/MissionRowText';
import { Link, useParams } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { OBJECT_ID_PATTERN } from '@gift/shared/constants';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { NotFoundNotice } from '../../ui/NotFoundNotice';
import { PageHeader } from '../../ui/PageHeader';
import { Skeleton } from '../../ui/Skeleton';
import { EndsIn } from '../missions/EndsIn';
import '../missions/locales';

export const isObjectId = (id: string) => OBJECT_ID_PATTERN.test(id);

/** A category's missions, star missions marked, each with the player's status and opening its mission. */
export function CategoryMissionsPage({ backTo = '/' }: { backTo?: string }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const valid = isObjectId(id);
  const query = trpc.missions.byCategory.useQuery({ categoryId: id }, { enabled: valid });

  if (!valid || query.error?.data?.httpStatus === 404) {
    return <NotFoundNotice title={t('notFound.title')} text={t('categories.notFound')} backTo={backTo} />;
  }
  return (
    <section className="page">
      <PageHeader title={query.data?.category.title ?? t('categories.missions')} backTo={backTo} />
      {query.isPending && <Skeleton rows={4} />}
      {query.error && <ErrorMessage error={query.error} />}
      {query.data && query.data.missions.length === 0 && <p className="muted">{t('categories.noMissions')}</p>}
      {query.data && (
        <ul className="list">
          {query.data.missions.map((mission) => (
            <li key={mission.id}>
              <Link className="list-row" to={`/categories/${id}/missions/${mission.id}/get`}>
                {mission.image && <img src={mission.image} alt="" loading="lazy" />}
                <MissionRowText mission={mission}>
                  {' '}
                  {mission.repeat === 'daily' && <span className="badge">{t('mission.daily')}</span>} <EndsIn endsAt={mission.endsAt} />
                </MissionRowText>
                <span className={mission.status === 'done' ? 'badge' : 'muted'}>{t(`categories.status.${mission.status}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
