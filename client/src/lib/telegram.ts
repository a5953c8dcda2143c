/** The bits of Telegram's WebApp object (telegram-web-app.js) this app uses. */
interface TelegramWebApp {
  initData: string;
  initDataUnsafe?: { user?: { language_code?: string }; start_param?: string };
  platform?: string;
  version?: string;
  ready(): void;
  expand(): void;
  openLink(url: string): void;
  openTelegramLink(url: string): void;
  setHeaderColor?(color: string): void;
  setBackgroundColor?(color: string): void;
}

declare global {
  interface Window {
    Telegram?: { WebApp?: TelegramWebApp };
  }
}

const TELEGRAM_SCRIPT = 'https://telegram.org/js/telegram-web-app.js';
const SESSION_KEY = 'tgWebAppData';

function launchParams(): URLSearchParams {
  return new URLSearchParams(window.location.hash.replace(/^#/, ''));
}

/** Read once at start: client-side navigation drops the URL hash Telegram put the launch data in. */
let launchData: string | null | undefined;

/**
 * The raw, signed initData of this launch, or null outside Telegram. Only the server can trust it
 * (it checks the signature); the client just forwards it.
 */
export function telegramInitData(): string | null {
  const fromScript = window.Telegram?.WebApp?.initData;
  if (fromScript) return fromScript;
  if (launchData === undefined) {
    const fromHash = launchParams().get('tgWebAppData');
    let fromSession: string | null = null;
    try {
      if (fromHash) sessionStorage.setItem(SESSION_KEY, fromHash);
      else fromSession = sessionStorage.getItem(SESSION_KEY);
    } catch {
      // storage can be off in some webviews: the hash alone is enough for this page load
    }
    launchData = fromHash || fromSession || null;
  }
  return launchData;
}

export function isInsideTelegram(): boolean {
  return telegramInitData() !== null;
}

function initDataField(name: string): string | null {
  const data = telegramInitData();
  return data ? new URLSearchParams(data).get(name) : null;
}

/** The invite code a player arrived with (t.me/<bot>/<app>?startapp=<code>). */
export function startParam(): string | null {
  return initDataField('start_param') ?? launchParams().get('tgWebAppStartParam');
}

/** The language of the player's Telegram app, as a first guess for ours. */
export function telegramLanguage(): string | null {
  const user = initDataField('user');
  if (!user) return null;
  try {
    const parsed = JSON.parse(user) as { language_code?: unknown };
    return typeof parsed.language_code === 'string' ? parsed.language_code.slice(0, 2) : null;
  } catch {
    return null;
  }
}

/** Loads Telegram's script only inside Telegram, so the web app does not wait on telegram.org. */
export function connectToTelegram(): void {
  if (!isInsideTelegram() || document.querySelector(`script[src="${TELEGRAM_SCRIPT}"]`)) return;
  const script = document.createElement('script');
  script.src = TELEGRAM_SCRIPT;
  script.async = true;
  script.onload = () => {
    const webApp = window.Telegram?.WebApp;
    webApp?.ready();
    webApp?.expand();
  };
  document.head.appendChild(script);
}

/** Opens a link the way Telegram wants: t.me links through Telegram itself, others in the browser. */
export function openLink(url: string): void {
  const webApp = window.Telegram?.WebApp;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) return;
  if (webApp && parsed.host === 't.me') webApp.openTelegramLink(url);
  else if (webApp) webApp.openLink(url);
  else window.open(url, '_blank', 'noopener,noreferrer');
}

/** Keeps Telegram's header and background in the app's colours. */
export function paintTelegramChrome(background: string): void {
  const webApp = window.Telegram?.WebApp;
  webApp?.setHeaderColor?.(background);
  webApp?.setBackgroundColor?.(background);
}
