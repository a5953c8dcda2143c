import { useTranslation } from '../../lib/translator';
import type { RouterOutputs } from '../../lib/trpc';
import { trpc } from '../../lib/trpc';
import { useFormat } from '../../lib/format';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { Skeleton } from '../../ui/Skeleton';
import { useNow } from '../../ui/countdown';
import './locales';

type Board = RouterOutputs['leagues']['current'];
type Row = Board['entries'][number];

/** One player on a board: rank, name (cut with an ellipsis when long) and what they earned this week. */
function BoardRow({ row, symbol }: { row: Pick<Row, 'rank' | 'name' | 'score'> & { me?: boolean }; symbol: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li className={`list-row friend${row.me ? ' me' : ''}`} aria-current={row.me ? 'true' : undefined}>
      <span className="badge">{format.number(row.rank)}</span>
      <span className="grow">
        <span className="title">{row.me ? t('leagues.you') : row.name || t('leagues.player')}</span>
      </span>
      <span className="muted">
        {format.amount(row.score)} {symbol}
      </span>
    </li>
  );
}

/** The player's league this week: where they stand, the top of the league, who is around them, and their friends. */
export function LeaguesPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const board = trpc.leagues.current.useQuery();
  const friends = trpc.leagues.friends.useQuery();
  const now = useNow(!!board.data);
  const symbol = board.data?.coin?.symbol ?? '';
  return (
    <section className="page leagues">
      <PageHeader title={t('leagues.title')} backTo="/" />
      {board.error && <ErrorMessage error={board.error} />}
      {board.isPending && <Skeleton rows={6} />}
      {board.data && (
        <>
          <div className="card league-head" role="group" aria-label={t('leagues.title')}>
            <div className="title">{t(`leagues.names.${board.data.league}`)}</div>
            <div>
              {board.data.me.rank === null ? t('leagues.unranked') : t('leagues.rank', { rank: format.number(board.data.me.rank) })}
            </div>
            <div className="muted">{t('leagues.earned', { amount: format.amount(board.data.me.score), symbol })}</div>
            <div className="muted">
              {t('leagues.endsIn', { time: format.countdown(Math.max(0, new Date(board.data.endsAt).getTime() - now)) })}
            </div>
            <div className="muted">{t('leagues.rules')}</div>
          </div>
          <h2>{t('leagues.top')}</h2>
          {board.data.entries.length ? (
            <ol className="list">
              {board.data.entries.map((row) => (
                <BoardRow key={`top-${row.rank}`} row={row} symbol={symbol} />
              ))}
            </ol>
          ) : (
            <p className="muted">{t('leagues.empty')}</p>
          )}
          {board.data.around.length > 0 && (
            <>
              <h2>{t('leagues.around')}</h2>
              <ol className="list">
                {board.data.around.map((row) => (
                  <BoardRow key={`around-${row.rank}`} row={row} symbol={symbol} />
                ))}
              </ol>
            </>
          )}
        </>
      )}
      {friends.data && (
        <>
          <h2>{t('leagues.friends')}</h2>
          <ol className="list">
            {friends.data.map((row) => (
              <BoardRow
                key={row.id}
                row={{ ...row, name: row.inviter ? t('leagues.inviter', { name: row.name }) : row.name }}
                symbol={symbol}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
