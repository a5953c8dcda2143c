import { useEffect, type ReactNode } from 'react';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { useStore } from 'react-admin';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import { directionOf, i18nProvider } from '../i18n/i18nProvider';

/**
 * Emotion's style caches, one per direction: the right-to-left one mirrors every style as it is written (margins,
 * paddings, left and right, borders), as MUI's right-to-left guide sets it up. Two keys, so the two never share rules.
 */
const caches = {
  ltr: createCache({ key: 'mui', prepend: true }),
  rtl: createCache({ key: 'muirtl', prepend: true, stylisPlugins: [prefixer, rtlPlugin] }),
};

/** The console's language, kept in react-admin's store (the app bar's language menu sets it). */
function useConsoleLocale(): string {
  return useStore<string>('locale', i18nProvider.getLocale())[0];
}

/** The console's reading direction: right to left in Persian. */
export const useConsoleDirection = (): 'ltr' | 'rtl' => directionOf(useConsoleLocale());

/**
 * Sets the page's `dir` and `lang` (so text, scroll bars and the browser's own controls follow) and the matching style
 * cache for everything under it, the login page and notifications included.
 */
export function DirectionProvider({ children }: { children: ReactNode }) {
  const locale = useConsoleLocale();
  const direction = directionOf(locale);
  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.lang = locale === 'fa' ? 'fa' : 'en';
  }, [direction, locale]);
  return <CacheProvider value={caches[direction]}>{children}</CacheProvider>;
}
