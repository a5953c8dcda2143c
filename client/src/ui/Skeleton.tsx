import { useTranslation } from '../lib/translator';
import { ShellCoverStrip, type ShellCover } from './shellCover';

type Shape = 'list' | 'card' | 'covers' | 'form';

const Line = ({ width }: { width: string }) => <span className="skeleton-line" style={{ width }} />;

function Block({ shape, rows }: { shape: Shape; rows: number }) {
  if (shape === 'covers') return <span className="skeleton-block skeleton-cover" />;
  if (shape === 'card' || shape === 'form')
    return (
      <span className="skeleton-block skeleton-card">
        <Line width="40%" />
        <Line width="75%" />
        {shape === 'form' && <span className="skeleton-field" />}
        <span className="skeleton-button" />
      </span>
    );
  return (
    <span className="skeleton-list">
      {Array.from({ length: rows }, (_, row) => (
        <span key={row} className="skeleton-block skeleton-row">
          <span className="skeleton-icon" />
          <span className="skeleton-text">
            <Line width={`${70 - ((row * 17) % 30)}%`} />
            <Line width="30%" />
          </span>
        </span>
      ))}
    </span>
  );
}

/**
 * Grey shapes where content is on its way, shaped like it (a list's rows, a card, the covers, a form), so the page does
 * not jump when it arrives. Screen readers hear "Loading…" once; the shapes themselves are hidden from them.
 */
export function Skeleton({ shape = 'list', rows = 3 }: { shape?: Shape; rows?: number }) {
  const { t } = useTranslation();
  return (
    <div className="skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">{t('common.loading')}</span>
      <span aria-hidden="true">
        <Block shape={shape} rows={rows} />
      </span>
    </div>
  );
}

/**
 * A whole page on its way (the app's launch, a page whose code is loading): a title, a card and a list. A launch at home
 * keeps the cover the page's shell painted (`cover`) under the title, where home shows it.
 */
export function PageSkeleton({ cover = null }: { cover?: ShellCover | null }) {
  const { t } = useTranslation();
  return (
    <section className="page skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">{t('common.loading')}</span>
      {cover ? (
        <>
          <div className="page-header" aria-hidden="true">
            <span className="skeleton-title" />
          </div>
          <ShellCoverStrip cover={cover} />
        </>
      ) : (
        <span className="skeleton-title" aria-hidden="true" />
      )}
      <span aria-hidden="true">
        <Block shape="card" rows={0} />
      </span>
      <span aria-hidden="true">
        <Block shape="list" rows={4} />
      </span>
    </section>
  );
}
