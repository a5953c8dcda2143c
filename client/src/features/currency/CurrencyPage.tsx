import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../ui/ComingSoon';

export function CurrencyPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('currency.title')} />;
}
