import { compareVersions, on } from '@telegram-apps/bridge';
import { sendToTelegram } from './telegramBridge';
import { insideTelegram, launchParam, telegramVersion } from './telegramLaunch';

type Scheme = 'light' | 'dark';

/** Light or dark, from a palette's background colour (how Telegram itself tells its schemes apart). */
function schemeOf(background: unknown): Scheme | null {
  const match = typeof background === 'string' ? /^#?([0-9a-f]{6})$/i.exec(background) : null;
  if (!match) return null;
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(match[1]!.slice(at, at + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 128 ? 'light' : 'dark';
}

/** The colour scheme of the player's Telegram at launch (tgWebAppThemeParams), or null outside Telegram. */
export function telegramColorScheme(): Scheme | null {
  if (!insideTelegram()) return null;
  try {
    const palette: unknown = JSON.parse(launchParam('tgWebAppThemeParams') ?? 'null');
    return palette && typeof palette === 'object' && 'bg_color' in palette ? schemeOf(palette.bg_color) : null;
  } catch {
    return null;
  }
}

/** Follows the player's Telegram when it switches between light and dark (theme_changed). */
export function onTelegramSchemeChange(listener: (scheme: Scheme) => void): () => void {
  return on('theme_changed', (theme) => {
    const scheme = schemeOf(theme?.theme_params?.bg_color);
    if (scheme) listener(scheme);
  });
}

/** Keeps Telegram's header, background and bottom bar in the app's colours (the header's by value from 6.10, by key before). */
export function paintTelegramChrome(background: `#${string}`): void {
  if (compareVersions(telegramVersion(), '6.10') >= 0) sendToTelegram('web_app_set_header_color', { color: background });
  else sendToTelegram('web_app_set_header_color', { color_key: 'bg_color' });
  sendToTelegram('web_app_set_background_color', { color: background });
  sendToTelegram('web_app_set_bottom_bar_color', { color: background });
}
