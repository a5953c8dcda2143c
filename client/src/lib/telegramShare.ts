import { on } from '@telegram-apps/bridge';
import { askTelegram, sendToTelegram, telegramSupports } from './telegramBridge';

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
  return askTelegram<'sent' | 'declined' | 'failed'>(
    () => sendToTelegram('web_app_send_prepared_message', { id }),
    'failed',
    (answer) => [
      on('prepared_message_sent', () => answer('sent')),
      on('prepared_message_failed', (failure) => answer(failure?.error === 'USER_DECLINED' ? 'declined' : 'failed')),
    ],
  );
}
