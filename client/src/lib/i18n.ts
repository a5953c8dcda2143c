import type { Language } from '@gift/shared/constants';
import { formatAmount, formatNumber } from './format';
import { chosenLanguage, loadTexts, LOCALE_STORAGE_KEY } from './language';
import { writeStored } from './storage';
import { addFormat, addTexts, switchLanguage } from './translator';

export { isLanguage, LOCALE_STORAGE_KEY } from './language';
export { currentLanguage } from './translator';

const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['fa']);

/** Sets lang and dir on <html> so the whole layout, not only text, turns right-to-left. */
function applyDocumentLanguage(language: Language) {
  document.documentElement.lang = language;
  document.documentElement.dir = RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** The languages whose texts are added, or on their way. */
const loaded = new Map<Language, Promise<void>>();
const ready = new Set<Language>();
let started = false;

/** Adds `language`'s texts to the translator, fetching them the first time; resolves once they are there. */
function loadLanguage(language: Language): Promise<void> {
  let loading = loaded.get(language);
  if (!loading) {
    loading = loadTexts(language).then((texts) => {
      addTexts(language, texts);
      ready.add(language);
    });
    // a failed fetch (offline before the code was cached) is tried again on the next ask
    loading.catch(() => loaded.delete(language));
    loaded.set(language, loading);
  }
  return loading;
}

/**
 * Starts the translator once, in the stored choice, else the hint (Telegram's language), else English; resolves once that
 * language's texts are loaded (the app renders then). Called again, it only sets the page's direction.
 */
export async function initI18n(hint?: string | null): Promise<void> {
  const language = chosenLanguage(hint);
  applyDocumentLanguage(language);
  if (started) return;
  started = true;
  switchLanguage(language);
  // `{{amount, amount}}` writes an exact decimal amount, `{{count, number}}` a number, in the language's digits with separators
  addFormat('amount', (value, lng) => formatAmount(String(value), lng));
  addFormat('number', (value, lng) => formatNumber(Number(value), lng));
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
  switchLanguage(language);
  applyDocumentLanguage(language);
}
