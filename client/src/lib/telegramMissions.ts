import { on, type MethodName } from '@telegram-apps/bridge';
import type { VerifyType } from '@gift/shared/constants';
import { askTelegram, sendToTelegram, telegramSupports } from './telegramBridge';
import { readStored, writeStored } from './storage';

/** What each Telegram-native mission asks of the player's Telegram, and since which version it has it (a boost is a link: any). */
const NEEDS: Partial<Record<VerifyType, { method: MethodName; since: string }>> = {
  homeScreen: { method: 'web_app_add_to_home_screen', since: '8.0' },
  emojiStatus: { method: 'web_app_set_emoji_status', since: '8.0' },
  story: { method: 'web_app_share_to_story', since: '7.8' },
};

/** The Telegram version a mission needs when this launch's Telegram lacks what it asks for (or the app is outside Telegram); else null. */
export function newerTelegramNeeded(verifyType: VerifyType): string | null {
  const needs = NEEDS[verifyType];
  return needs && !telegramSupports(needs.method) ? needs.since : null;
}

const HOME_SCREEN_ADDED_KEY = 'homeScreenAdded';
/** How long Telegram is given to say whether the shortcut is there. */
const HOME_SCREEN_ANSWER_MS = 5000;

/**
 * What this player's Telegram says of the app's home-screen shortcut: `added` when home_screen_checked says so, or when the
 * player added it from here (Telegram answers `unknown` on devices that cannot tell); the server takes this word as it is.
 */
export async function homeScreenStatus(): Promise<'added' | 'missed' | 'unknown' | 'unsupported'> {
  const checked = await askTelegram<string>(
    () => sendToTelegram('web_app_check_home_screen'),
    'unsupported',
    (answer) => {
      // a Telegram that never answers leaves the player a claim to try, not a button stuck waiting
      const timer = setTimeout(() => answer('unknown'), HOME_SCREEN_ANSWER_MS);
      return [on('home_screen_checked', (check) => answer(check?.status ?? 'unknown')), () => clearTimeout(timer)];
    },
  );
  if (checked === 'added' || readStored(HOME_SCREEN_ADDED_KEY) === 'yes') return 'added';
  return checked === 'missed' || checked === 'unsupported' ? checked : 'unknown';
}

/** Asks Telegram to add the app's shortcut; resolves `added` once the player added it, `declined` or `failed` otherwise. */
export function addAppToHomeScreen(): Promise<'added' | 'declined' | 'failed'> {
  return askTelegram<'added' | 'declined' | 'failed'>(
    () => sendToTelegram('web_app_add_to_home_screen'),
    'failed',
    (answer) => [
      on('home_screen_added', () => {
        writeStored(HOME_SCREEN_ADDED_KEY, 'yes');
        answer('added');
      }),
      on('home_screen_failed', () => answer('declined')),
    ],
  );
}

/** Opens Telegram's dialog to set this custom emoji as the player's status; resolves `set`, `declined` or `failed`. */
export function setEmojiStatus(customEmojiId: string): Promise<'set' | 'declined' | 'failed'> {
  return askTelegram<'set' | 'declined' | 'failed'>(
    () => sendToTelegram('web_app_set_emoji_status', { custom_emoji_id: customEmojiId }),
    'failed',
    (answer) => [
      on('emoji_status_set', () => answer('set')),
      on('emoji_status_failed', (failure) => answer(failure?.error === 'USER_DECLINED' ? 'declined' : 'failed')),
    ],
  );
}
