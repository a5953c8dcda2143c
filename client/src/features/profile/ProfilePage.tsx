import { useFormat } from '../../lib/format';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { useEffect, useState } from 'react';
import { useInstallPrompt } from '../../lib/installPrompt';
import { addToHomeScreen, homeScreenShortcutMissing } from '../../lib/telegramScreen';
import { trpc } from '../../lib/trpc';
import { Figures } from '../../ui/Figures';
import { Avatar, PlayerName } from '../../ui/identity';
import { PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/toast';
import { useSession } from '../signIn/PlayerSession';
import { ProfileWallet } from '../wallet/components/ProfileWallet';
import './locales';

const COIN_FIGURES = ['rewards', 'earned', 'withdrawn', 'gifts'] as const;
const COUNTS = ['missionsCount', 'doneMissionsCount', 'referrersCount'] as const;
const MENU = [
  ['/profile/settings', 'profile.settings'],
  ['/profile/withdraw', 'profile.withdraw'],
  ['/profile/my-wallets', 'profile.myWallets'],
  ['/invite', 'profile.inviteFriend'],
  ['/profile/help', 'profile.help'],
] as const;

/** Inside a Telegram that can (8.0 and later), the app's shortcut on the device's home screen, offered until it is there. */
function HomeScreenShortcut() {
  const { t } = useTranslation();
  const toast = useToast();
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    let current = true;
    void homeScreenShortcutMissing().then((answer) => current && setMissing(answer));
    return () => {
      current = false;
    };
  }, []);
  if (!missing) return null;
  const add = () =>
    addToHomeScreen(() => {
      setMissing(false);
      toast(t('common.addedToHomeScreen'), 'success');
    });
  return (
    <button type="button" className="button button-ghost" onClick={add}>
      {t('common.addToHomeScreen')}
    </button>
  );
}

/** The player's figures, and the way to settings, withdraw and wallets. */
export function ProfilePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { player, credential, signOut } = useSession();
  const { canInstall, install } = useInstallPrompt();
  const toast = useToast();
  // ends every web sign-in (this device's too); a Telegram launch stays Telegram's
  const signOutEverywhere = trpc.auth.signOutEverywhere.useMutation({
    onSuccess: () => {
      toast(t('profile.signedOutEverywhere'), 'success');
      if (credential === 'web') signOut();
    },
    onError: () => toast(t('profile.signOutEverywhereFailed'), 'error'),
  });
  return (
    <section className="page">
      <PageHeader title={t('profile.title')} />
      <div className="card profile-head">
        <Avatar name={player.name || player.username} photo={player.photoUrl} />
        <div>
          <PlayerName name={player.name} username={player.username} testId="player-name" />
        </div>
      </div>

      <div className="card">
        <Figures figures={COUNTS.map((count) => ({ label: t(`profile.figures.${count}`), value: format.number(player[count]) }))} />
      </div>

      {player.coins.map((coin) => (
        <div className="card" key={coin.coinId}>
          <h2>
            {coin.name}{' '}
            <span className="muted" dir="ltr">
              {format.amount(coin.balance)} {coin.symbol}
            </span>
          </h2>
          <Figures
            figures={COIN_FIGURES.map((figure) => ({ label: t(`profile.figures.${figure}`), value: format.amount(coin[figure]) }))}
          />
        </div>
      ))}

      <ProfileWallet />

      <nav className="menu">
        {MENU.map(([to, label]) => (
          <Link key={to} className="list-row" to={to}>
            {t(label)}
          </Link>
        ))}
        {canInstall && (
          <button type="button" className="button" onClick={() => void install()}>
            {t('common.install')}
          </button>
        )}
        <HomeScreenShortcut />
        {credential === 'web' && (
          <button type="button" className="button button-ghost" onClick={signOut}>
            {t('profile.signOut')}
          </button>
        )}
        {/* inside Telegram the launch itself signs the player in: ending web sessions belongs to the web app */}
        {credential === 'web' && (
          <button
            type="button"
            className="button button-ghost"
            disabled={signOutEverywhere.isPending}
            onClick={() => signOutEverywhere.mutate()}
          >
            {t('profile.signOutEverywhere')}
          </button>
        )}
      </nav>
    </section>
  );
}
