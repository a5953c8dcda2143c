import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../lib/translator';

/**
 * Offline, said plainly above every page: reads wait for the connection (react-query pauses them) and show their shapes
 * meanwhile, so without this a player would watch grey shapes without knowing why. It goes away by itself when the
 * connection is back and the pages fill in.
 */
export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(
    (onChange) => onlineManager.subscribe(onChange),
    () => onlineManager.isOnline(),
  );
  if (online) return null;
  return (
    <p className="notice notice-offline" role="status">
      {t('common.offlineWaiting')}
    </p>
  );
}
