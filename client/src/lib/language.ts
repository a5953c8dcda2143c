import { LANGUAGES, type Language } from '@gift/shared/constants';
import type { Translation } from '../locales/en';
import { readStored } from './storage';

// What the first screen needs to know of the languages before the app's code is loaded: which one to show, and where its texts
// are. Each language's texts are a chunk of their own, so the first screen loads the player's language only.

/** Browser storage key of the chosen language (docs/product.md). */
export const LOCALE_STORAGE_KEY = 'locale';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored choice wins, then the hint (Telegram's language), then English. */
export function chosenLanguage(hint?: string | null): Language {
  const stored = readStored(LOCALE_STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  return isLanguage(hint) ? hint : 'en';
}

/** The app's texts in `language`, fetched when first asked for (main.tsx asks for the player's at once). */
export async function loadTexts(language: Language): Promise<Translation> {
  // one import() a statement: the build preloads each import's own chunks, and in a single expression it took both for one
  if (language === 'fa') {
    const { fa } = await import('../locales/fa');
    return fa;
  }
  const { en } = await import('../locales/en');
  return en;
}
