import { useTranslation } from '../../../lib/translator';
import { useWalletConnection } from '../WalletConnection';

/** Opens TON Connect's own wallet modal. */
export function ConnectWalletButton() {
  const { t } = useTranslation();
  const { connect, outcome } = useWalletConnection();
  return (
    <button type="button" className="button" disabled={outcome?.kind === 'linking'} onClick={() => void connect()}>
      {t('wallet.connect')}
    </button>
  );
}
