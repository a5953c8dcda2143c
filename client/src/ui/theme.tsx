import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { THEMES, type Theme } from '@gift/shared/constants';
import { paintTelegramChrome } from '../lib/telegram';

export type ThemeChoice = Theme;
export const THEME_STORAGE_KEY = 'theme';

/** The app colours of spec §9. */
export const PALETTE = {
  dark: { background: '#191919', surface: '#1e1e1e' },
  light: { background: '#edf2eb', surface: '#f7f9f7' },
  primary: '#86e54b',
} as const;

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return (THEMES as readonly unknown[]).includes(value);
}

function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(value) ? value : 'dark';
  } catch {
    return 'dark';
  }
}

function systemPrefersLight(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: light)').matches;
}

interface ThemeState {
  choice: ThemeChoice;
  /** The theme actually shown ('system' resolved). */
  resolved: 'dark' | 'light';
  setChoice: (choice: ThemeChoice) => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

/** Dark is the app default; the choice is remembered on this device. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(storedTheme);
  const [prefersLight, setPrefersLight] = useState(systemPrefersLight);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: light)');
    const onChange = () => setPrefersLight(query.matches);
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);

  const resolved = choice === 'system' ? (prefersLight ? 'light' : 'dark') : choice;

  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
    const background = PALETTE[resolved].background;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', background);
    paintTelegramChrome(background);
  }, [resolved]);

  const setChoice = useCallback((next: ThemeChoice) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // storage off: the choice lasts for this visit
    }
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
