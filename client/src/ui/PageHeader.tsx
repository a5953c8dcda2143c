import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from '../lib/translator';
import { showTelegramBackButton } from '../lib/telegram';
import { telegramSupports } from '../lib/telegramBridge';

/**
 * A page title, with a way back for pages below a tab: Telegram's own Back button inside Telegram (from protocol 6.1), the
 * page's arrow elsewhere.
 */
export function PageHeader({ title, backTo, children }: { title: string; backTo?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const telegramBack = !!backTo && telegramSupports('web_app_setup_back_button');
  useEffect(() => {
    if (!backTo) return;
    const hide = showTelegramBackButton(() => navigate(backTo));
    return () => hide?.();
  }, [backTo, navigate]);
  return (
    <header className="page-header">
      {backTo && !telegramBack && (
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
