import { compareVersions, isIframe, postEvent } from '@telegram-apps/bridge';
import { sendToTelegram } from './telegramBridge';
import { insideTelegram, telegramVersion } from './telegramLaunch';

/**
 * Opens a t.me link inside Telegram (docs/product.md), as telegram.org's script does: only http(s) links on host t.me;
 * otherwise the fallback runs when given, else 'Url protocol is not supported' / 'Url host is not supported'.
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
    throw new Error(refusal);
  }
  if (compareVersions(telegramVersion(), '6.1') >= 0 || isIframe()) {
    return postEvent('web_app_open_tg_link', { path_full: parsed.pathname + parsed.search });
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
  if (parsed.hostname === 't.me' && insideTelegram()) {
    try {
      openTelegramLink(parsed.href, openInBrowser);
    } catch {
      openInBrowser();
    }
  } else openInBrowser();
}
