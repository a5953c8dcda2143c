import { useTranslation } from 'react-i18next';
import { PageHeader } from './PageHeader';

/** A section that exists in the navigation but is not open yet. */
export function ComingSoon({ title, backTo }: { title: string; backTo?: string }) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <PageHeader title={title} backTo={backTo} />
      <p className="coming-soon">{t('common.comingSoon')}</p>
    </section>
  );
}
