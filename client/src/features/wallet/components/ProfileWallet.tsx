import { Link } from 'wouter';
import { useTranslation } from '../../../lib/translator';
import { trpc } from '../../../lib/trpc';
import { shortAddress } from '../address';
import '../../profile/locales';

/** The wallet withdrawals go to, on the Profile page; it needs no TON Connect code. */
export function ProfileWallet() {
  const { t } = useTranslation();
  const wallets = trpc.wallet.list.useQuery();
  if (!wallets.data) return null;
  const wallet = wallets.data[0];
  return (
    <Link className="list-row" to="/profile/my-wallets" data-testid="profile-wallet">
      <span className="grow">
        <span className="muted">{t('profile.wallet')}</span>
        <br />
        {wallet ? (
          <bdi dir="ltr" className="mono">
            {shortAddress(wallet.address)}
          </bdi>
        ) : (
          <span>{t('profile.connectWallet')}</span>
        )}
      </span>
    </Link>
  );
}
