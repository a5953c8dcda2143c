import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { THEMES, type Theme } from '@gift/shared/constants';
import { onTelegramSchemeChange, paintTelegramChrome, telegramColorScheme } from '../lib/telegramTheme';
import { readStored, writeStored } from '../lib/storage';

export type ThemeChoice = Theme;
export const THEME_STORAGE_KEY = 'theme';

/** The app colours of docs/product.md. */
export const PALETTE = {
  dark: { background: '#191919', surface: '#1e1e1e' },
  light: { background: '#edf2eb', surface: '#f7f9f7' },
  primary: '#86e54b',
} as const;

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return (THEMES as readonly unknown[]).includes(value);
}

/** The theme chosen on this device, or null when none was. */
function storedTheme(): ThemeChoice | null {
  const value = readStored(THEME_STORAGE_KEY);
  return isThemeChoice(value) ? value : null;
}

function systemPrefersLight(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: light)').matches;
}

interface ThemeState {
  choice: ThemeChoice;
  /** The theme actually shown ('system' resolved: Telegram's scheme inside Telegram, the device's outside). */
  resolved: 'dark' | 'light';
  setChoice: (choice: ThemeChoice) => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

/**
 * The choice is remembered on this device. Without one, the app follows Telegram's light or dark scheme inside Telegram (at
 * launch and whenever it changes), and is dark, the spec's default, outside it.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [stored, setChoiceState] = useState<ThemeChoice | null>(storedTheme);
  const [prefersLight, setPrefersLight] = useState(systemPrefersLight);
  const [telegramScheme, setTelegramScheme] = useState(telegramColorScheme);
  useEffect(() => onTelegramSchemeChange(setTelegramScheme), []);
  const choice: ThemeChoice = stored ?? (telegramScheme ? 'system' : 'dark');

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: light)');
    const onChange = () => setPrefersLight(query.matches);
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);

  const resolved = choice === 'system' ? (telegramScheme ?? (prefersLight ? 'light' : 'dark')) : choice;

  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    const background = PALETTE[resolved].background;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', background);
    paintTelegramChrome(background);
  }, [resolved]);

  const setChoice = useCallback((next: ThemeChoice) => {
    writeStored(THEME_STORAGE_KEY, next);
    setChoiceState(next);
  }, []);

  const value = useMemo(() => ({ choice, resolved, setChoice }), [choice, resolved, setChoice]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme needs <ThemeProvider>');
  return state;
}
