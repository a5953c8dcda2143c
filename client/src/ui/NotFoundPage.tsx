import { Link } from 'wouter';
import { useTranslation } from '../lib/translator';
import { useFormat } from '../lib/format';

/** Unknown routes (docs/product.md: title 'Page Not Found'). */
export function NotFoundPage() {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <section className="page status-page">
      <p className="status-code">{format.number(404)}</p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link className="button" to="/">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
