import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** A page title, with a way back for pages below a tab. */
export function PageHeader({ title, backTo, children }: { title: string; backTo?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="page-header">
      {backTo && (
        <Link to={backTo} className="back-link" aria-label={t('common.back')}>
          <span aria-hidden="true" className="back-arrow">
            ‹
          </span>
        </Link>
      )}
      <h1>
        <bdi>{title}</bdi>
      </h1>
      {children}
    </header>
  );
}
