import { MissionRowText } from '../../missions/MissionRowText';
import { Link } from 'wouter';
import { useTranslation } from '../../../lib/translator';
import type { RouterOutputs } from '../../../lib/trpc';
import { EndsIn } from '../../missions/EndsIn';

type Home = RouterOutputs['home']['get'];

/** Home's today: the streak of days with a daily mission done, its next milestone, and today's daily missions. */
export function TodayCard({ daily, streak }: Pick<Home, 'daily' | 'streak'>) {
  const { t } = useTranslation();
  if (!daily.length && !streak.days) return null;
  return (
    <>
      <h2 id="today">{t('home.today')}</h2>
      <div className="card streak" role="group" aria-label={t('home.today')}>
        <div className="title">{streak.days ? t('home.streak', { days: streak.days }) : t('home.noStreak')}</div>
        {streak.days > 0 && <div className="muted">{streak.doneToday ? t('home.streakToday') : t('home.streakOpen')}</div>}
        {streak.next && (
          <div className="muted">
            {t('home.streakNext', { days: streak.next.days, amount: streak.next.amount, symbol: streak.next.symbol })}
          </div>
        )}
      </div>
      {daily.length > 0 && (
        <ul className="list">
          {daily.map((mission) => (
            <li key={mission.id}>
              <Link className="list-row" to={`/tasks/${mission.id}`}>
                <MissionRowText mission={mission}>
                  {' '}
                  <EndsIn endsAt={mission.endsAt} />
                </MissionRowText>
                <span className={mission.status === 'done' ? 'badge' : 'muted'}>{t(`categories.status.${mission.status}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
