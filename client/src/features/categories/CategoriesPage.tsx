import { useTranslation } from '../../lib/translator';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { CategoryRow } from '../home/components/CategoryRow';
import { Skeleton } from '../../ui/Skeleton';

/** Every category with the player's progress (the same data as home, from the same cache). */
export function CategoriesPage() {
  const { t } = useTranslation();
  const home = trpc.home.get.useQuery();
  return (
    <section className="page">
      <PageHeader title={t('categories.title')} backTo="/" />
      {home.error && <ErrorMessage error={home.error} />}
      {home.isPending && <Skeleton rows={4} />}
      {home.data && home.data.categories.length === 0 && <p className="muted">{t('home.noCategories')}</p>}
      {home.data && (
        <ul className="list">
          {home.data.categories.map((category) => (
            <CategoryRow key={category.id} category={category} />
          ))}
        </ul>
      )}
    </section>
  );
}
