import polyglotI18nProvider from 'ra-i18n-polyglot';
import { englishConsoleMessages } from './en';

export const i18nProvider = polyglotI18nProvider(() => englishConsoleMessages, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});
