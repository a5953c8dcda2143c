import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../ui/ComingSoon';

export function StakingPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('staking.title')} />;
}
