import { Link } from 'wouter';
import { useTranslation } from '../../../lib/translator';
import type { RouterOutputs } from '../../../lib/trpc';

type HomeCategory = RouterOutputs['home']['get']['categories'][number];

/** A category with the player's progress through its missions. */
export function CategoryRow({ category, fromHome = false }: { category: HomeCategory; fromHome?: boolean }) {
  const { t } = useTranslation();
  const total = category.missionsTotal;
  const done = category.missionsDone;
  return (
    <li>
      <Link className="list-row" to={fromHome ? `/${category.id}` : `/categories/${category.id}/missions`}>
        {category.image && <img src={category.image} alt="" loading="lazy" />}
        <div className="grow">
          <div className="title">
            <bdi>{category.title}</bdi>
          </div>
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
