import { useTranslation } from 'react-i18next';
import { trpc } from '../../lib/trpc';
import { PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/toast';
import { PreferencesForm } from './components/PreferencesForm';

/** Language and theme: applied at once on this device, kept on the player's account too. */
export function SettingsPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const toast = useToast();
  const save = trpc.user.updateSettings.useMutation({
    onSuccess: () => {
      toast(t('common.saved'), 'success');
      return utils.user.me.invalidate();
    },
    onError: () => toast(t('common.saveFailed'), 'error'),
  });
  return (
    <section className="page">
      <PageHeader title={t('settings.title')} backTo="/profile" />
      <PreferencesForm onChange={(settings) => save.mutate(settings)} />
    </section>
  );
}
