declare global {
  interface Window {
    /** telegram.org's script, when a page loaded it (only its signed initData is read), and the receiver the bridge installs. */
    Telegram?: { WebApp?: { initData: string }; WebView?: { receiveEvent(eventType: string, eventData?: unknown): void } };
  }
}

/** What the app reads of a launch (the bridge's own reader wants every field of a recent Telegram, and an old one lacks some). */
const LAUNCH_KEYS = ['tgWebAppData', 'tgWebAppVersion', 'tgWebAppThemeParams', 'tgWebAppFullscreen'] as const;

/**
 * A parameter of this launch: from the URL hash Telegram opened the app with, else as this tab kept it (client-side
 * navigation drops the hash).
 */
export function launchParam(key: (typeof LAUNCH_KEYS)[number]): string | null {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  try {
    if (!hash.has('tgWebAppData') && !hash.has('tgWebAppVersion')) return sessionStorage.getItem(key);
    for (const name of LAUNCH_KEYS) {
      const value = hash.get(name);
      if (value === null) sessionStorage.removeItem(name);
      else sessionStorage.setItem(name, value);
    }
  } catch {
    // storage can be off in some webviews: the hash alone serves this page load
  }
  return hash.get(key);
}

/** Read once at start: client-side navigation drops the URL hash Telegram put the launch data in. */
let launchData: string | null | undefined;

/**
 * The raw, signed initData of this launch, or null outside Telegram. Only the server can trust it (it checks the
 * signature); the client just forwards it.
 */
export function telegramInitData(): string | null {
  const fromScript = window.Telegram?.WebApp?.initData;
  if (fromScript) return fromScript;
  launchData ??= launchParam('tgWebAppData');
  return launchData;
}

export const insideTelegram = () => telegramInitData() !== null;

/** The Mini Apps protocol version of this launch's Telegram ("7.10"); the oldest when it did not say. */
export const telegramVersion = () => launchParam('tgWebAppVersion') ?? '6.0';

/** The language of the player's Telegram app, as a first guess for ours. */
export function telegramLanguage(): string | null {
  const user = new URLSearchParams(telegramInitData() ?? '').get('user');
  try {
    const parsed: unknown = user ? JSON.parse(user) : null;
    const code = parsed && typeof parsed === 'object' && 'language_code' in parsed ? parsed.language_code : null;
    return typeof code === 'string' ? code.slice(0, 2) : null;
  } catch {
    return null;
  }
}

/**
 * The start parameter of the t.me link this page load was launched from (`startapp`), as Telegram passes it in the launch:
 * `tgWebAppStartParam`, else the `start_param` of the launch data. Read from the URL hash only, never from what the tab
 * kept, so a later page of the same launch does not see it again.
 */
export function launchStartParam(): string | null {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const data = hash.get('tgWebAppData');
  return hash.get('tgWebAppStartParam') || (data ? new URLSearchParams(data).get('start_param') : null) || null;
}
