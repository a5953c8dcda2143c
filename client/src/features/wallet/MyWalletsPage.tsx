import { useState } from 'react';
import { useTranslation } from '../../lib/translator';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { useBriefFlag } from '../../ui/useBriefFlag';
import { shortAddress } from './address';
import { ConnectWalletButton } from './components/ConnectWalletButton';
import { LinkOutcomeMessage, WalletConnection } from './WalletConnection';

type LinkedWallet = RouterOutputs['wallet']['list'][number];

/** docs/product.md: the Copy button reads 'Address copied!' for 1 s. */
const COPIED_FOR_MS = 1000;

function WalletRow({ wallet, onUnlink, unlinking }: { wallet: LinkedWallet; onUnlink: () => void; unlinking: boolean }) {
  const { t } = useTranslation();
  const [showFull, setShowFull] = useState(false);
  const [copied, setCopied] = useBriefFlag(COPIED_FOR_MS);
  const [confirming, setConfirming] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(wallet.address);
      setCopied(true);
    } catch {
      // no clipboard here: the full address is shown to copy by hand
      setShowFull(true);
    }
  };

  return (
    <li className="card wallet-row" data-testid="linked-wallet">
      <button
        type="button"
        className="wallet-address"
        aria-expanded={showFull}
        onClick={() => setShowFull((shown) => !shown)}
        title={showFull ? t('wallet.hideFull') : t('wallet.showFull')}
      >
        <bdi dir="ltr" className="mono">
          {showFull ? wallet.address : shortAddress(wallet.address)}
        </bdi>
        {wallet.network === '-3' && <span className="badge">{t('wallet.testnet')}</span>}
      </button>
      <div className="wallet-actions">
        <button type="button" className="button button-ghost" onClick={() => void copy()}>
          {/* the label itself changes, and a screen reader hears it */}
          <span aria-live="polite">{copied ? t('wallet.copied') : t('wallet.copy')}</span>
        </button>
        <button type="button" className="button button-ghost" onClick={() => setConfirming(true)}>
          {t('wallet.unlink')}
        </button>
      </div>
      {confirming && (
        <div className="confirm" role="alertdialog" aria-label={t('wallet.unlink')}>
          <p>{t('wallet.unlinkConfirm', { address: shortAddress(wallet.address) })}</p>
          <div className="wallet-actions">
            <button type="button" className="button" disabled={unlinking} onClick={onUnlink}>
              {t('wallet.unlinkYes')}
            </button>
            <button type="button" className="button button-ghost" onClick={() => setConfirming(false)}>
              {t('wallet.cancel')}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

function MyWallets() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const wallets = trpc.wallet.list.useQuery();
  const unlink = trpc.wallet.unlink.useMutation({
    onSuccess: (remaining) => {
      utils.wallet.list.setData(undefined, remaining);
      void utils.withdrawals.coins.invalidate();
    },
  });

  return (
    <section className="page">
      <PageHeader title={t('wallet.title')} backTo="/profile" />
      <LinkOutcomeMessage />
      {wallets.error && <ErrorMessage error={wallets.error} />}
      {wallets.data?.length === 0 && <p className="muted">{t('wallet.none')}</p>}
      {wallets.data && wallets.data.length > 0 && (
        <ul className="list">
          {wallets.data.map((wallet) => (
            <WalletRow
              key={wallet.rawAddress}
              wallet={wallet}
              unlinking={unlink.isPending}
              onUnlink={() => unlink.mutate({ address: wallet.rawAddress })}
            />
          ))}
        </ul>
      )}
      {unlink.isSuccess && (
        <p className="notice" role="status">
          {t('wallet.unlinked')}
        </p>
      )}
      {unlink.error && <ErrorMessage error={unlink.error} />}
      <ConnectWalletButton />
    </section>
  );
}

/** The player's linked TON wallets; a new one is linked through TON Connect with a ton_proof. */
export function MyWalletsPage() {
  return (
    <WalletConnection>
      <MyWallets />
    </WalletConnection>
  );
}
