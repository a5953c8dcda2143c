import polyglotI18nProvider from 'ra-i18n-polyglot';
import { englishConsoleMessages } from './en';
import { persianConsoleMessages } from './fa';

/** The prefix of the warning a label without a translation logs; the browser tests fail on it. */
const MISSING_TRANSLATION = 'Missing console translation:';

type ConsoleLocale = 'en' | 'fa';

/** The languages the console offers, each named in itself; Persian is read right to left. */
const CONSOLE_LOCALES: Array<{ locale: ConsoleLocale; name: string }> = [
  { locale: 'en', name: 'English' },
  { locale: 'fa', name: 'فارسی' },
];

export const directionOf = (locale: string | undefined): 'rtl' | 'ltr' => (locale === 'fa' ? 'rtl' : 'ltr');

/** The browser's language when the console speaks it (an operator whose browser is Persian starts in Persian), else English. */
function browserLocale(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): ConsoleLocale {
  const first = (languages[0] ?? 'en').toLowerCase().split('-')[0];
  return first === 'fa' ? 'fa' : 'en';
}

/**
 * Every label of the console is a key of `en.ts`, and `fa.ts` has the same keys (the type checks it). A key that is
 * missing shows as the key itself and says so in the browser's console, where the browser tests look for it
 * (react-admin's own field labels pass their humanised source as a default instead). The chosen language is kept in
 * react-admin's store (`locale`), which the language menu of the app bar sets.
 */
export const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'fa' ? persianConsoleMessages : englishConsoleMessages),
  browserLocale(),
  CONSOLE_LOCALES,
  {
    onMissingKey: (key: string) => {
      console.warn(`${MISSING_TRANSLATION} ${key}`);
      return key;
    },
  },
);
