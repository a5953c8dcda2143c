import polyglotI18nProvider from 'ra-i18n-polyglot';
import { englishConsoleMessages } from './en';

/** The prefix of the warning a label without a translation logs; the browser tests fail on it. */
const MISSING_TRANSLATION = 'Missing console translation:';

/**
 * Every label of the console is a key of `en.ts`. A key that is missing shows as the key itself and says so in
 * the browser's console, where the browser tests look for it (react-admin's own field labels pass their
 * humanised source as a default instead).
 */
export const i18nProvider = polyglotI18nProvider(() => englishConsoleMessages, 'en', [{ locale: 'en', name: 'English' }], {
  onMissingKey: (key: string) => {
    console.warn(`${MISSING_TRANSLATION} ${key}`);
    return key;
  },
});
