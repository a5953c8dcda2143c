import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../ui/ComingSoon';

export function CategoriesPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('categories.title')} />;
}
