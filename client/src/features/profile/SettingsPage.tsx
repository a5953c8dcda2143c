import { useTranslation } from 'react-i18next';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { PreferencesForm } from './components/PreferencesForm';

/** Language and theme: applied at once on this device, kept on the player's account too. */
export function SettingsPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const save = trpc.user.updateSettings.useMutation({ onSuccess: () => utils.user.me.invalidate() });
  return (
    <section className="page">
      <PageHeader title={t('settings.title')} backTo="/profile" />
      <PreferencesForm onChange={(settings) => save.mutate(settings)} />
      {save.isSuccess && <p className="muted" role="status">{t('common.saved')}</p>}
      {save.error && <ErrorMessage error={save.error} />}
    </section>
  );
}
