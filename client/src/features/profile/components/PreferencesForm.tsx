import { useTranslation } from 'react-i18next';
import { LANGUAGES, THEMES, type Language } from '@gift/shared/constants';
import { currentLanguage, setLanguage } from '../../../lib/i18n';
import { useTheme, type ThemeChoice } from '../../../ui/theme';
import { haptic } from '../../../lib/telegram';

/** The language and theme selector (docs/product.md); `onChange` lets the page also keep the choice on the server. */
export function PreferencesForm({ onChange }: { onChange?: (settings: { language?: Language; theme?: ThemeChoice }) => void }) {
  const { t, i18n } = useTranslation();
  const { choice, setChoice } = useTheme();
  const language = (i18n.language as Language) ?? currentLanguage();

  return (
    <div className="card menu">
      <div className="field">
        <span id="language-label">{t('settings.language')}</span>
        <div className="segmented" role="group" aria-labelledby="language-label">
          {LANGUAGES.map((code) => (
            <button
              key={code}
              type="button"
              lang={code}
              aria-pressed={language === code}
              onClick={() => {
                haptic('selection');
                void setLanguage(code);
                onChange?.({ language: code });
              }}
            >
              {t(`settings.languages.${code}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="field">
        <span id="theme-label">{t('settings.theme')}</span>
        <div className="segmented" role="group" aria-labelledby="theme-label">
          {THEMES.map((theme) => (
            <button
              key={theme}
              type="button"
              aria-pressed={choice === theme}
              onClick={() => {
                haptic('selection');
                setChoice(theme);
                onChange?.({ theme });
              }}
            >
              {t(`settings.themes.${theme}`)}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
