import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@gift/shared/constants';
import { en } from '../locales/en';
import { fa } from '../locales/fa';
import { formatAmount, formatNumber } from './format';
import { readStored, writeStored } from './storage';

/** Browser storage key of the chosen language (docs/product.md). */
export const LOCALE_STORAGE_KEY = 'locale';
const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['fa']);

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language | null {
  const value = readStored(LOCALE_STORAGE_KEY);
  return isLanguage(value) ? value : null;
}

/** Sets lang and dir on <html> so the whole layout, not only text, turns right-to-left. */
function applyDocumentLanguage(language: Language) {
  document.documentElement.lang = language;
  document.documentElement.dir = RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** Starts i18next once; the stored choice wins, then the hint (Telegram's language), then English. */
export function initI18n(hint?: string | null) {
  const language = storedLanguage() ?? (isLanguage(hint) ? hint : 'en');
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { en: { translation: en }, fa: { translation: fa } },
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
  }
  applyDocumentLanguage(language);
  return i18next;
}

/** Switches the language, remembers it, and flips the layout direction. */
export async function setLanguage(language: Language) {
  writeStored(LOCALE_STORAGE_KEY, language);
  document.cookie = `${LOCALE_STORAGE_KEY}=${language}; max-age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; path=/; samesite=lax`;
  await i18next.changeLanguage(language);
  applyDocumentLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}
