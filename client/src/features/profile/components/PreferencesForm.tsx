import { useTranslation } from '../../../lib/translator';
import { LANGUAGES, THEMES, type Language } from '@gift/shared/constants';
import { setLanguage } from '../../../lib/i18n';
import { useTheme, type ThemeChoice } from '../../../ui/theme';
import { ChoiceField } from '../../../ui/fields';
import '../settingsLocales';

/** The language and theme selector (docs/product.md); `onChange` lets the page also keep the choice on the server. */
export function PreferencesForm({ onChange }: { onChange?: (settings: { language?: Language; theme?: ThemeChoice }) => void }) {
  const { t, i18n } = useTranslation();
  const { choice, setChoice } = useTheme();
  const language = i18n.language;

  return (
    <div className="card menu">
      <ChoiceField
        id="language-label"
        label={t('settings.language')}
        choices={LANGUAGES.map((code) => ({ value: code, label: t(`settings.languages.${code}`), lang: code }))}
        chosen={language}
        onChoose={(code) => {
          // kept once the language is shown (its texts may still be on their way): a save that fails then goes back to the one before
          void setLanguage(code).then(() => onChange?.({ language: code }));
        }}
      />
      <ChoiceField
        id="theme-label"
        label={t('settings.theme')}
        choices={THEMES.map((theme) => ({ value: theme, label: t(`settings.themes.${theme}`) }))}
        chosen={choice}
        onChoose={(theme) => {
          setChoice(theme);
          onChange?.({ theme });
        }}
      />
    </div>
  );
}
