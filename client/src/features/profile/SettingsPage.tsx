import { useRef } from 'react';
import { useTranslation } from '../../lib/translator';
import { isLanguage, setLanguage } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import { PageHeader } from '../../ui/PageHeader';
import { useTheme } from '../../ui/theme';
import { useToast } from '../../ui/toast';
import { FullscreenField } from './components/FullscreenField';
import { PreferencesForm } from './components/PreferencesForm';
import { RemindersField } from './components/RemindersField';
import './settingsLocales';

/**
 * Language and theme: applied at once on this device, kept on the player's account too. When the account refuses a change,
 * the device goes back to what it showed before, so the screen never keeps a setting that was not saved.
 */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const utils = trpc.useUtils();
  const toast = useToast();
  const save = trpc.user.updateSettings.useMutation({
    // in the language shown when the answer comes (a language just chosen may not have re-rendered the page yet)
    onSuccess: () => {
      toast(i18n.t('common.saved'), 'success');
      return utils.user.me.invalidate();
    },
    onError: () => toast(i18n.t('common.saveFailed'), 'error'),
  });
  // what the device shows; PreferencesForm applies a choice before it calls onChange
  const shown = useRef({ language: i18n.language, theme: theme.choice });
  return (
    <section className="page">
      <PageHeader title={t('settings.title')} backTo="/profile" />
      <PreferencesForm
        onChange={(settings) => {
          const before = shown.current;
          shown.current = { language: settings.language ?? before.language, theme: settings.theme ?? before.theme };
          save.mutate(settings, {
            onError: () => {
              shown.current = before;
              theme.setChoice(before.theme);
              if (isLanguage(before.language)) void setLanguage(before.language);
            },
          });
        }}
      />
      <FullscreenField />
      <Reminders />
    </section>
  );
}

/** The reminder switches: a tap shows at once, and goes back (with a toast) when the server refuses it. */
function Reminders() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const toast = useToast();
  const reminders = trpc.user.reminders.useQuery();
  const change = trpc.user.switchReminder.useMutation({
    onMutate: ({ kind, on }) => {
      const before = utils.user.reminders.getData();
      if (before)
        utils.user.reminders.setData(undefined, { ...before, kinds: before.kinds.map((k) => (k.kind === kind ? { kind, on } : k)) });
      return { before };
    },
    onSuccess: (saved) => utils.user.reminders.setData(undefined, saved),
    onError: (_error, _input, context) => {
      if (context?.before) utils.user.reminders.setData(undefined, context.before);
      toast(t('common.saveFailed'), 'error');
    },
  });
  if (!reminders.data) return null;
  return (
    <RemindersField
      kinds={reminders.data.kinds}
      messagePermission={reminders.data.messagePermission}
      onSwitch={(kind, on) => change.mutate({ kind, on })}
    />
  );
}
