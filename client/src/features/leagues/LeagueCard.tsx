import { Link } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { trpc } from '../../lib/trpc';
import { useFormat } from '../../lib/format';

/** Home's card of the player's league and rank this week; it opens the Leagues page. */
export function LeagueCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const board = trpc.leagues.current.useQuery();
  if (!board.data) return null;
  const { league, me } = board.data;
  return (
    <Link className="list-row league-card" to="/leagues">
      <span aria-hidden="true">🏆</span>
      <span className="grow">
        <span className="title">{t(`leagues.names.${league}`)}</span>{' '}
        <span className="muted">{me.rank === null ? t('leagues.unranked') : t('leagues.rank', { rank: format.number(me.rank) })}</span>
      </span>
      <span className="muted">{t('leagues.open')}</span>
    </Link>
  );
}
