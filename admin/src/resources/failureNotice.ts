import type { NotificationOptions } from 'react-admin';

/**
 * A refusal as a notification: the server's own message (already in the console's language, see inConsoleLanguage),
 * shown as it is rather than read as a translation key; "could not save" when it has none. Use as
 * `notify(...failureNotice(error))`.
 */
export function failureNotice(error: unknown): [string, NotificationOptions] {
  const message = error instanceof Error ? error.message : '';
  return [message || 'common.saveFailed', { type: 'error', messageArgs: { _: message } }];
}
