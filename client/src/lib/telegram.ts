/** Telegram's WebApp object, when a page loaded telegram.org's script itself: only its signed initData is read. */
interface TelegramWebApp {
  initData: string;
}

/** Where Telegram delivers events to a Mini App (what telegram-web-app.js would define), and the native transports. */
interface TelegramHost {
  Telegram?: { WebApp?: TelegramWebApp; WebView?: { receiveEvent: Receive } };
  TelegramGameProxy?: { receiveEvent: Receive };
  TelegramGameProxy_receiveEvent?: Receive;
  TelegramWebviewProxy?: { postEvent(type: string, data: string): void };
  external?: { notify?(message: string): void };
}
type Receive = (eventType: string, eventData?: unknown) => void;

declare global {
  interface Window {
    Telegram?: TelegramHost['Telegram'];
  }
}

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
      if (version) {
        sessionStorage.setItem('tgWebAppVersion', version);
        sessionStorage.setItem('tgWebAppFullscreen', launchParams().has('tgWebAppFullscreen') ? '1' : '0');
      } else fromSession = sessionStorage.getItem(SESSION_KEY);
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

/**
 * The methods this app sends, each with the first protocol version that has it (Telegram Mini Apps' method list): a launch
 * of an older version is sent nothing it lacks.
 */
const SINCE = {
  web_app_ready: '6.0',
  web_app_expand: '6.0',
  web_app_request_theme: '6.0',
  web_app_open_link: '6.0',
  web_app_close: '6.0',
  web_app_open_tg_link: '6.1',
  web_app_set_background_color: '6.1',
  web_app_set_header_color: '6.1',
  web_app_setup_back_button: '6.1',
  web_app_trigger_haptic_feedback: '6.1',
  web_app_setup_closing_behavior: '6.2',
  web_app_request_write_access: '6.9',
  web_app_share_to_story: '7.8',
  web_app_set_bottom_bar_color: '7.10',
  web_app_add_to_home_screen: '8.0',
  web_app_check_home_screen: '8.0',
  web_app_request_fullscreen: '8.0',
  web_app_exit_fullscreen: '8.0',
  web_app_request_safe_area: '8.0',
  web_app_request_content_safe_area: '8.0',
  web_app_send_prepared_message: '8.0',
} as const;
type Method = keyof typeof SINCE;

/** Whether there is a Telegram client to post to: the native proxy, the external notify, or a parent window. */
function hasTransport(): boolean {
  const host = window as unknown as TelegramHost;
  return !!host.TelegramWebviewProxy || !!host.external?.notify || window.parent !== window;
}

/** Whether this launch's Telegram knows `method` and can be reached. */
export function telegramSupports(method: Method): boolean {
  return (
    isInsideTelegram() && hasTransport() && versionAtLeast(telegramVersion(), SINCE[method].split('.').map(Number) as [number, number])
  );
}

/** Sends a method to Telegram when this launch is inside Telegram and its version has it; otherwise nothing. */
export function sendToTelegram(method: Method, data: Record<string, unknown> = {}): boolean {
  if (!telegramSupports(method)) return false;
  try {
    postToTelegram(method, data);
    return true;
  } catch {
    return false;
  }
}

const listeners = new Map<string, Set<(data: unknown) => void>>();

/** Listens to an event Telegram sends (theme_changed, back_button_pressed, …); returns the way to stop. */
export function onTelegramEvent(eventType: string, listener: (data: unknown) => void): () => void {
  if (!listeners.has(eventType)) listeners.set(eventType, new Set());
  listeners.get(eventType)!.add(listener);
  return () => listeners.get(eventType)?.delete(listener);
}

const receive: Receive = (eventType, eventData) => {
  for (const listener of listeners.get(eventType) ?? []) listener(eventData);
};

/** The receivers Telegram calls: the native apps call Telegram.WebView.receiveEvent, the web clients post a message. */
function listenToTelegram(): void {
  const host = window as unknown as TelegramHost;
  host.Telegram = { ...host.Telegram, WebView: { receiveEvent: receive } };
  host.TelegramGameProxy = { receiveEvent: receive };
  host.TelegramGameProxy_receiveEvent = receive;
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || typeof event.data !== 'string') return;
    try {
      const { eventType, eventData } = JSON.parse(event.data) as { eventType?: unknown; eventData?: unknown };
      if (typeof eventType === 'string') receive(eventType, eventData);
    } catch {
      // another frame's message, not Telegram's
    }
  });
}

/** The palette Telegram launched the app with (tgWebAppThemeParams), or null outside Telegram. */
function launchThemeParams(): Record<string, string> | null {
  const raw = launchParams().get('tgWebAppThemeParams') ?? sessionValue('tgWebAppThemeParams');
  if (!raw) return null;
  try {
    if (launchParams().get('tgWebAppThemeParams')) sessionStorage.setItem('tgWebAppThemeParams', raw);
  } catch {
    // storage off: this page load still has the hash
  }
  try {
    return JSON.parse(raw) as Record<string, string>;
  } catch {
    return null;
  }
}

/** Light or dark, from a palette's background colour (how Telegram itself tells its schemes apart). */
function schemeOf(params: Record<string, unknown> | null): 'light' | 'dark' | null {
  const match = typeof params?.bg_color === 'string' ? /^#?([0-9a-f]{6})$/i.exec(params.bg_color) : null;
  if (!match) return null;
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(match[1]!.slice(at, at + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 128 ? 'light' : 'dark';
}

/** The colour scheme of the player's Telegram at launch, or null outside Telegram. */
export function telegramColorScheme(): 'light' | 'dark' | null {
  return isInsideTelegram() ? schemeOf(launchThemeParams()) : null;
}

/** Follows the player's Telegram when it switches between light and dark (theme_changed). */
export function onTelegramSchemeChange(listener: (scheme: 'light' | 'dark') => void): () => void {
  return onTelegramEvent('theme_changed', (data) => {
    const scheme = schemeOf((data as { theme_params?: Record<string, unknown> } | undefined)?.theme_params ?? null);
    if (scheme) listener(scheme);
  });
}

/**
 * Inside Telegram, without telegram.org's script: listens to Telegram's events, says the app is ready, takes the full
 * height and asks for the current theme. Outside Telegram it does nothing.
 */
export function connectToTelegram(): void {
  if (!isInsideTelegram()) return;
  listenToTelegram();
  followSafeAreas();
  sendToTelegram('web_app_ready');
  sendToTelegram('web_app_expand');
  sendToTelegram('web_app_request_theme');
  sendToTelegram('web_app_request_safe_area');
  sendToTelegram('web_app_request_content_safe_area');
  if (fullscreenWanted() && !fullscreen) sendToTelegram('web_app_request_fullscreen');
}

const SIDES = ['top', 'bottom', 'left', 'right'] as const;

/**
 * Keeps the insets Telegram reports in CSS variables the layout pads with: the device's own (notch, home indicator) and,
 * in fullscreen, the band Telegram's close and menu buttons float over.
 */
function followSafeAreas(): void {
  const follow = (event: string, prefix: string) =>
    onTelegramEvent(event, (data) => {
      const insets = (data ?? {}) as Partial<Record<(typeof SIDES)[number], unknown>>;
      for (const side of SIDES) {
        const value = insets[side];
        if (typeof value === 'number' && Number.isFinite(value) && value >= 0)
          document.documentElement.style.setProperty(`--tg-${prefix}-${side}`, `${value}px`);
      }
    });
  follow('safe_area_changed', 'safe-area');
  follow('content_safe_area_changed', 'content-safe-area');
  onTelegramEvent('fullscreen_changed', (data) => {
    fullscreen = (data as { is_fullscreen?: unknown } | undefined)?.is_fullscreen === true;
    for (const listener of fullscreenListeners) listener(fullscreen);
  });
}

const FULLSCREEN_KEY = 'fullscreen';
/** Whether the app is in fullscreen now: from the launch (tgWebAppFullscreen), then from Telegram's fullscreen_changed. */
let fullscreen = launchParams().has('tgWebAppFullscreen') || sessionValue('tgWebAppFullscreen') === '1';
const fullscreenListeners = new Set<(on: boolean) => void>();

function fullscreenWanted(): boolean {
  try {
    return localStorage.getItem(FULLSCREEN_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Whether this Telegram can show the app fullscreen (8.0 and later). */
export const canGoFullscreen = () => telegramSupports('web_app_request_fullscreen');

export const isFullscreen = () => fullscreen;

/** Follows the app going in and out of fullscreen; returns the way to stop. */
export function onFullscreenChange(listener: (on: boolean) => void): () => void {
  fullscreenListeners.add(listener);
  return () => fullscreenListeners.delete(listener);
}

/**
 * Asks Telegram to show the app fullscreen or not, and keeps the choice on this device so the next launch opens the same
 * way; resolves with whether the app is fullscreen once Telegram answered (it refuses on devices that cannot).
 */
export function setFullscreen(on: boolean): Promise<boolean> {
  try {
    localStorage.setItem(FULLSCREEN_KEY, on ? 'on' : 'off');
  } catch {
    // storage off: this launch only
  }
  return new Promise((resolve) => {
    const stops = [
      onFullscreenChange((now) => {
        stops.forEach((stop) => stop());
        resolve(now);
      }),
      onTelegramEvent('fullscreen_failed', (data) => {
        stops.forEach((stop) => stop());
        // asked for what already is: that is the answer
        resolve((data as { error?: unknown } | undefined)?.error === 'ALREADY_FULLSCREEN' ? true : fullscreen);
      }),
    ];
    if (!sendToTelegram(on ? 'web_app_request_fullscreen' : 'web_app_exit_fullscreen')) {
      stops.forEach((stop) => stop());
      resolve(fullscreen);
    }
  });
}

type Haptic = 'success' | 'error' | 'selection' | 'tap';

/** A haptic the player feels: a credit or a claim (success), a refusal (error), a choice (selection), a tap. */
export function haptic(kind: Haptic): void {
  const data =
    kind === 'selection'
      ? { type: 'selection_change' }
      : kind === 'tap'
        ? { type: 'impact', impact_style: 'light' }
        : { type: 'notification', notification_type: kind };
  sendToTelegram('web_app_trigger_haptic_feedback', data);
}

/**
 * Asks the player, through Telegram, to let the bot message them; resolves with whether they allowed it (false at once where
 * this Telegram cannot ask).
 */
export function requestWriteAccess(): Promise<boolean> {
  return new Promise((resolve) => {
    const stop = onTelegramEvent('write_access_requested', (data) => {
      stop();
      resolve((data as { status?: unknown } | undefined)?.status === 'allowed');
    });
    if (!sendToTelegram('web_app_request_write_access')) {
      stop();
      resolve(false);
    }
  });
}

/** Whether this Telegram can post a story from the app (7.8 and later). */
export const canShareToStory = () => telegramSupports('web_app_share_to_story');

/**
 * Opens Telegram's story editor with an image and a caption; the link widget is for Premium players only (Telegram refuses
 * it from others), so it is added only for them.
 */
export function shareToStory(mediaUrl: string, text: string, link?: { url: string; name: string }): boolean {
  return sendToTelegram('web_app_share_to_story', { media_url: mediaUrl, text, ...(link ? { widget_link: link } : {}) });
}

/** Whether this Telegram can share a message the bot prepared, to chats the player picks (8.0 and later). */
export const canShareMessage = () => telegramSupports('web_app_send_prepared_message');

/**
 * Opens Telegram's chat picker for a message the bot prepared (savePreparedInlineMessage); resolves 'sent', 'declined' when
 * the player closed the picker, or 'failed' (unsupported, expired, refused) so the caller can fall back to a share link.
 */
export function shareMessage(id: string): Promise<'sent' | 'declined' | 'failed'> {
  return new Promise((resolve) => {
    const stops = [
      onTelegramEvent('prepared_message_sent', () => {
        stops.forEach((stop) => stop());
        resolve('sent');
      }),
      onTelegramEvent('prepared_message_failed', (data) => {
        stops.forEach((stop) => stop());
        resolve((data as { error?: unknown } | undefined)?.error === 'USER_DECLINED' ? 'declined' : 'failed');
      }),
    ];
    if (!sendToTelegram('web_app_send_prepared_message', { id })) {
      stops.forEach((stop) => stop());
      resolve('failed');
    }
  });
}

/**
 * Whether the app's shortcut can be added to the device's home screen here (8.0 and later, on a device that supports it):
 * resolves false where it cannot, or where it is there already.
 */
export function homeScreenShortcutMissing(): Promise<boolean> {
  return new Promise((resolve) => {
    const stop = onTelegramEvent('home_screen_checked', (data) => {
      stop();
      const status = (data as { status?: unknown } | undefined)?.status;
      resolve(status === 'missed' || status === 'unknown');
    });
    if (!sendToTelegram('web_app_check_home_screen')) {
      stop();
      resolve(false);
    }
  });
}

/** Asks Telegram to add the app's shortcut to the home screen; `onAdded` runs when the player has added it. */
export function addToHomeScreen(onAdded: () => void): void {
  const stop = onTelegramEvent('home_screen_added', () => {
    stop();
    onAdded();
  });
  if (!sendToTelegram('web_app_add_to_home_screen')) stop();
}

/** Asks Telegram to confirm before closing the app while a money action is on its way (and to stop asking after). */
export function confirmClosing(needed: boolean): void {
  sendToTelegram('web_app_setup_closing_behavior', { need_confirmation: needed });
}

/** Shows Telegram's own Back button, which calls `onBack`; the returned function hides it again. */
export function showTelegramBackButton(onBack: () => void): (() => void) | null {
  if (!sendToTelegram('web_app_setup_back_button', { is_visible: true })) return null;
  const stop = onTelegramEvent('back_button_pressed', onBack);
  return () => {
    stop();
    sendToTelegram('web_app_setup_back_button', { is_visible: false });
  };
}

/** Why a link cannot go through Telegram's open-link message (docs/product.md). */
class TelegramLinkError extends Error {}

/** Whether a protocol version ("7.10") is at least `wanted` ([major, minor]). */
function versionAtLeast(version: string, wanted: [number, number]): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > wanted[0] || (major === wanted[0] && minor >= wanted[1]);
}

function telegramVersion(): string {
  return launchParams().get('tgWebAppVersion') ?? sessionValue('tgWebAppVersion') ?? '6.0';
}

function sessionValue(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Posts a message to the Telegram client: the native proxy, the external notify, or the parent window. */
function postToTelegram(eventType: string, eventData: Record<string, unknown>): void {
  const host = window as unknown as TelegramHost;
  const data = JSON.stringify(eventData);
  if (host.TelegramWebviewProxy) return host.TelegramWebviewProxy.postEvent(eventType, data);
  if (host.external?.notify) return host.external.notify(JSON.stringify({ eventType, eventData }));
  if (window.parent !== window) return window.parent.postMessage(JSON.stringify({ eventType, eventData }), '*');
  throw new TelegramLinkError("Can't post event to TMA");
}

/**
 * Opens a t.me link inside Telegram (docs/product.md): only http(s) links on host t.me; otherwise the
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
  // inside Telegram, Telegram opens it in the player's browser; elsewhere a new tab
  const openInBrowser = () => {
    if (!sendToTelegram('web_app_open_link', { url: parsed.href })) window.open(parsed.href, '_blank', 'noopener,noreferrer');
  };
  if (parsed.hostname === 't.me' && isInsideTelegram()) {
    try {
      openTelegramLink(parsed.href, openInBrowser);
    } catch {
      openInBrowser();
    }
  } else openInBrowser();
}

/** Keeps Telegram's header, background and bottom bar in the app's colours (a colour by value from 6.10, by key before). */
export function paintTelegramChrome(background: string): void {
  if (versionAtLeast(telegramVersion(), [6, 10])) sendToTelegram('web_app_set_header_color', { color: background });
  else sendToTelegram('web_app_set_header_color', { color_key: 'bg_color' });
  sendToTelegram('web_app_set_background_color', { color: background });
  sendToTelegram('web_app_set_bottom_bar_color', { color: background });
}
