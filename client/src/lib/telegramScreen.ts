import { on } from '@telegram-apps/bridge';
import { askTelegram, sendToTelegram, telegramSupports } from './telegramBridge';
import { launchParam } from './telegramLaunch';
import { readStored, writeStored } from './storage';

const SIDES = ['top', 'bottom', 'left', 'right'] as const;
const FULLSCREEN_KEY = 'fullscreen';

/** Whether the app is in fullscreen now: from the launch (tgWebAppFullscreen), then from Telegram's fullscreen_changed. */
let fullscreen = launchParam('tgWebAppFullscreen') !== null;
const fullscreenListeners = new Set<(on: boolean) => void>();

/**
 * Keeps the insets Telegram reports in CSS variables the layout pads with: the device's own (notch, home indicator) and, in
 * fullscreen, the band Telegram's close and menu buttons float over. Follows fullscreen, and opens it when the player chose it.
 */
export function followTelegramScreen(): void {
  const pad = (event: 'safe_area_changed' | 'content_safe_area_changed', prefix: string) =>
    on(event, (insets) => {
      for (const side of SIDES) {
        const value: unknown = insets?.[side];
        if (typeof value === 'number' && Number.isFinite(value) && value >= 0)
          document.documentElement.style.setProperty(`--tg-${prefix}-${side}`, `${value}px`);
      }
    });
  pad('safe_area_changed', 'safe-area');
  pad('content_safe_area_changed', 'content-safe-area');
  on('fullscreen_changed', (state) => {
    fullscreen = state?.is_fullscreen === true;
    fullscreenListeners.forEach((listener) => listener(fullscreen));
  });
  sendToTelegram('web_app_request_safe_area');
  sendToTelegram('web_app_request_content_safe_area');
  if (fullscreenWanted() && !fullscreen) sendToTelegram('web_app_request_fullscreen');
}

const fullscreenWanted = () => readStored(FULLSCREEN_KEY) === 'on';

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
export function setFullscreen(wanted: boolean): Promise<boolean> {
  writeStored(FULLSCREEN_KEY, wanted ? 'on' : 'off');
  return askTelegram(
    () => sendToTelegram(wanted ? 'web_app_request_fullscreen' : 'web_app_exit_fullscreen'),
    fullscreen,
    (answer) => [
      onFullscreenChange(answer),
      // asked for what already is: that is the answer
      on('fullscreen_failed', (failure) => answer(failure?.error === 'ALREADY_FULLSCREEN' || fullscreen)),
    ],
  );
}

/**
 * Whether the app's shortcut can be added to the device's home screen here (8.0 and later, on a device that supports it):
 * resolves false where it cannot, or where it is there already.
 */
export function homeScreenShortcutMissing(): Promise<boolean> {
  return askTelegram(
    () => sendToTelegram('web_app_check_home_screen'),
    false,
    (answer) => [on('home_screen_checked', (check) => answer(check?.status === 'missed' || check?.status === 'unknown'))],
  );
}

/** Asks Telegram to add the app's shortcut to the home screen; `onAdded` runs when the player has added it. */
export function addToHomeScreen(onAdded: () => void): void {
  const stop = on('home_screen_added', () => {
    stop();
    onAdded();
  });
  if (!sendToTelegram('web_app_add_to_home_screen')) stop();
}
