import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../ui/ComingSoon';

export function MyWalletsPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('profile.myWallets')} backTo="/profile" />;
}
