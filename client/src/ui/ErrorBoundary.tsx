import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from '../lib/translator';

/** Search engines and link previews: they get no error page (docs/product.md), the error is logged. */
const CRAWLER_USER_AGENT = /bot|crawl|spider|slurp|facebookexternalhit|embedly|preview|lighthouse-crawler/i;

function isCrawler(userAgent = typeof navigator === 'undefined' ? '' : navigator.userAgent): boolean {
  return CRAWLER_USER_AGENT.test(userAgent);
}

/** The 500 view, in the player's language. */
function FatalError() {
  const { t } = useTranslation();
  return (
    <section className="page status-page" role="alert">
      <p className="status-code">500</p>
      <h1>{t('fatal.title')}</h1>
      <p>{t('fatal.text')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </button>
    </section>
  );
}

interface State {
  error: Error | null;
}

/** Fatal render errors show the error view (docs/product.md: 'Internal Server Error', status 500). */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The app failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    if (isCrawler()) return null;
    return <FatalError />;
  }
}
