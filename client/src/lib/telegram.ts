import { on } from '@telegram-apps/bridge';
import { askTelegram, sendToTelegram } from './telegramBridge';
import { insideTelegram } from './telegramLaunch';
import { followTelegramScreen } from './telegramScreen';

/**
 * Inside Telegram, without telegram.org's script: says the app is ready, takes the full height, asks for the current theme,
 * and follows the screen (safe areas, fullscreen). Outside Telegram it does nothing.
 */
export function connectToTelegram(): void {
  if (!insideTelegram()) return;
  sendToTelegram('web_app_ready');
  sendToTelegram('web_app_expand');
  sendToTelegram('web_app_request_theme');
  followTelegramScreen();
}

type Haptic = 'success' | 'error' | 'selection' | 'tap';

/** A haptic the player feels: a credit or a claim (success), a refusal (error), a choice (selection), a tap. */
export function haptic(kind: Haptic): void {
  sendToTelegram(
    'web_app_trigger_haptic_feedback',
    kind === 'selection'
      ? { type: 'selection_change' }
      : kind === 'tap'
        ? { type: 'impact', impact_style: 'light' }
        : { type: 'notification', notification_type: kind },
  );
}

/** Asks Telegram to confirm before closing the app while a money action is on its way (and to stop asking after). */
export function confirmClosing(needed: boolean): void {
  sendToTelegram('web_app_setup_closing_behavior', { need_confirmation: needed });
}

/** Shows Telegram's own Back button, which calls `onBack`; the returned function hides it again. */
export function showTelegramBackButton(onBack: () => void): (() => void) | null {
  if (!sendToTelegram('web_app_setup_back_button', { is_visible: true })) return null;
  const stop = on('back_button_pressed', onBack);
  return () => {
    stop();
    sendToTelegram('web_app_setup_back_button', { is_visible: false });
  };
}

/**
 * Asks the player, through Telegram, to let the bot message them; resolves with whether they allowed it (false at once where
 * this Telegram cannot ask).
 */
export function requestWriteAccess(): Promise<boolean> {
  return askTelegram(
    () => sendToTelegram('web_app_request_write_access'),
    false,
    (answer) => [on('write_access_requested', (request) => answer(request?.status === 'allowed'))],
  );
}
