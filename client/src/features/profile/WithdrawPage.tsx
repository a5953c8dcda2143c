import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../ui/ComingSoon';

export function WithdrawPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('profile.withdraw')} backTo="/profile" />;
}
