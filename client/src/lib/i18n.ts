import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@gift/shared/constants';
import { formatAmount, formatNumber } from './format';
import { chosenLanguage, isLanguage, loadTexts, LOCALE_STORAGE_KEY } from './language';
import { writeStored } from './storage';

export { isLanguage, LOCALE_STORAGE_KEY } from './language';

const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['fa']);

/** Sets lang and dir on <html> so the whole layout, not only text, turns right-to-left. */
function applyDocumentLanguage(language: Language) {
  document.documentElement.lang = language;
  document.documentElement.dir = RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** The languages whose texts are in i18next, or on their way (a page's own texts, such as the wallet's, may be there before them). */
const loaded = new Map<Language, Promise<void>>();
const ready = new Set<Language>();

/** Adds `language`'s texts to i18next, fetching them the first time; resolves once they are there. */
function loadLanguage(language: Language): Promise<void> {
  let loading = loaded.get(language);
  if (!loading) {
    loading = loadTexts(language).then((texts) => {
      i18next.addResourceBundle(language, 'translation', texts, true, false);
      ready.add(language);
    });
    // a failed fetch (offline before the code was cached) is tried again on the next ask
    loading.catch(() => loaded.delete(language));
    loaded.set(language, loading);
  }
  return loading;
}

/**
 * Starts i18next once, in the stored choice, else the hint (Telegram's language), else English; resolves once that
 * language's texts are loaded (the app renders then). Called again, it only sets the page's direction.
 */
export async function initI18n(hint?: string | null): Promise<void> {
  const language = chosenLanguage(hint);
  applyDocumentLanguage(language);
  if (i18next.isInitialized) return;
  void i18next.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  // `{{amount, amount}}` writes an exact decimal amount, `{{count, number}}` a number, in the language's digits with separators
  i18next.services.formatter?.add('amount', (value: unknown, language?: string) => formatAmount(String(value), language ?? 'en'));
  i18next.services.formatter?.add('number', (value: unknown, language?: string) => formatNumber(Number(value), language ?? 'en'));
  i18next.on('languageChanged', (next) => {
    if (isLanguage(next)) applyDocumentLanguage(next);
  });
  try {
    await loadLanguage(language);
  } catch (error) {
    // the app still starts (its texts show as keys) rather than stay on the shell
    console.warn('The app’s texts could not be loaded', error);
  }
}

/** Switches the language (fetching its texts first), remembers it, and flips the layout direction. */
export async function setLanguage(language: Language) {
  writeStored(LOCALE_STORAGE_KEY, language);
  document.cookie = `${LOCALE_STORAGE_KEY}=${language}; max-age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; path=/; samesite=lax`;
  // a language already loaded switches at once, in the same task
  if (!ready.has(language)) await loadLanguage(language);
  await i18next.changeLanguage(language);
  applyDocumentLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}
