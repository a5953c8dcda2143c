import { Link } from 'wouter';
import { useTranslation } from '../lib/translator';
import { PageHeader } from './PageHeader';

/** A page whose record does not exist (a bad id, a closed category): says so, and leads back. */
export function NotFoundNotice({ title, text, backTo }: { title: string; text: string; backTo: string }) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <PageHeader title={title} backTo={backTo} />
      <p className="notice" role="alert">
        {text}
      </p>
      <Link className="button" to="/">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
