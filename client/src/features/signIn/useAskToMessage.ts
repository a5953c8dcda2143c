import { useCallback } from 'react';
import { requestWriteAccess } from '../../lib/telegram';
import { readStored, writeStored } from '../../lib/storage';
import { telegramSupports } from '../../lib/telegramBridge';
import { trpc } from '../../lib/trpc';
import { useSession } from './PlayerSession';

const ASKED_KEY = 'writeAccessAsked';

const askedBefore = () => readStored(ASKED_KEY) === '1';
// storage off: at worst the player is asked again on another visit
const rememberAsked = () => writeStored(ASKED_KEY, '1');

/**
 * After a credit, the moment a player sees what the bot would tell them about: asks Telegram, once per device, to let the
 * bot message a player who has not allowed it, and tells the server when they allow it (notifications and sign-in codes
 * then reach them).
 */
export function useAskToMessage(): () => void {
  const { player } = useSession();
  const utils = trpc.useUtils();
  const allow = trpc.user.allowMessages.useMutation({ onSuccess: () => utils.user.me.invalidate() });
  const { mutate } = allow;
  return useCallback(() => {
    if (player.messagePermission || !telegramSupports('web_app_request_write_access') || askedBefore()) return;
    rememberAsked();
    void requestWriteAccess().then((allowed) => {
      if (allowed) mutate();
    });
  }, [player.messagePermission, mutate]);
}
