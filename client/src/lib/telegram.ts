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
      const version = launchParams().get('tgWebAppVersion');
      if (version) sessionStorage.setItem('tgWebAppVersion', version);
      else fromSession = sessionStorage.getItem(SESSION_KEY);
    } catch {
      // storage can be off in some webviews: the hash alone is enough for this page load
    }
    launchData = fromHash || fromSession || null;
  }
  return launchData;
}

function isInsideTelegram(): boolean {
  return telegramInitData() !== null;
}

function initDataField(name: string): string | null {
  const data = telegramInitData();
  return data ? new URLSearchParams(data).get(name) : null;
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

/** Why a link cannot go through Telegram's open-link message (spec §5). */
class TelegramLinkError extends Error {}

/** Telegram's open-link message exists from protocol 6.1, and inside an iframe (web clients). */
function versionAtLeast(version: string, wanted: [number, number]): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > wanted[0] || (major === wanted[0] && minor >= wanted[1]);
}

function telegramVersion(): string {
  return window.Telegram?.WebApp?.version ?? launchParams().get('tgWebAppVersion') ?? sessionVersion() ?? '6.0';
}

function sessionVersion(): string | null {
  try {
    return sessionStorage.getItem('tgWebAppVersion');
  } catch {
    return null;
  }
}

/** Posts a message to the Telegram client: the native proxy, the external notify, or the parent window. */
function postToTelegram(eventType: string, eventData: Record<string, unknown>): void {
  const host = window as unknown as {
    TelegramWebviewProxy?: { postEvent(type: string, data: string): void };
    external?: { notify?(message: string): void };
  };
  const data = JSON.stringify(eventData);
  if (host.TelegramWebviewProxy) return host.TelegramWebviewProxy.postEvent(eventType, data);
  if (host.external?.notify) return host.external.notify(JSON.stringify({ eventType, eventData }));
  if (window.parent !== window) return window.parent.postMessage(JSON.stringify({ eventType, eventData }), '*');
  throw new TelegramLinkError("Can't post event to TMA");
}

/**
 * Opens a t.me link inside Telegram (spec §7): only http(s) links on host t.me; otherwise the
 * fallback runs when given, else 'Url protocol is not supported' / 'Url host is not supported'.
 */
export function openTelegramLink(url: string, fallback?: () => void): void {
  const parsed = new URL(url);
  const refusal = !['http:', 'https:'].includes(parsed.protocol)
    ? 'Url protocol is not supported'
    : parsed.hostname !== 't.me'
      ? 'Url host is not supported'
      : null;
  if (refusal) {
    if (fallback) return fallback();
    throw new TelegramLinkError(refusal);
  }
  const webApp = window.Telegram?.WebApp;
  if (webApp) return webApp.openTelegramLink(url);
  const insideIframe = window.parent !== window;
  if (versionAtLeast(telegramVersion(), [6, 1]) || insideIframe) {
    return postToTelegram('web_app_open_tg_link', { path_full: parsed.pathname + parsed.search });
  }
  window.location.href = url;
}

/** Opens a link the way Telegram wants: t.me links through Telegram itself, others in the browser. */
export function openLink(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url, window.location.href);
  } catch {
    return;
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) return;
  const openInBrowser = () => {
    const webApp = window.Telegram?.WebApp;
    if (webApp) webApp.openLink(parsed.href);
    else window.open(parsed.href, '_blank', 'noopener,noreferrer');
  };
  if (parsed.hostname === 't.me' && isInsideTelegram()) {
    try {
      openTelegramLink(parsed.href, openInBrowser);
    } catch {
      openInBrowser();
    }
  } else openInBrowser();
}

/** Keeps Telegram's header and background in the app's colours. */
export function paintTelegramChrome(background: string): void {
  const webApp = window.Telegram?.WebApp;
  webApp?.setHeaderColor?.(background);
  webApp?.setBackgroundColor?.(background);
}
