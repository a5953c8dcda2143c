import { Link, useLocation } from 'wouter';
import { createContext, lazy, Suspense, useContext, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translator';
import { currentLanguage, isLanguage, LOCALE_STORAGE_KEY, setLanguage } from '../../lib/i18n';
import { readStored } from '../../lib/storage';
import { appErrorOf, playerCredential, storePlayerToken, trpc, type CredentialKind, type RouterOutputs } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { isThemeChoice, THEME_STORAGE_KEY, useTheme } from '../../ui/theme';
import { sendToTelegram } from '../../lib/telegramBridge';
import { openTelegramLink } from '../../lib/telegramLinks';
import { telegramColorScheme } from '../../lib/telegramTheme';
import { PageSkeleton, Skeleton } from '../../ui/Skeleton';
import { shellCover } from '../../ui/shellCover';

// only players outside Telegram sign in here: its code (and the form checks) load when needed
const SignInPage = lazy(() => import('./SignInPage').then((module) => ({ default: module.SignInPage })));
// only a banned player sees these here (the Help page has its own copy of them)
const AppealPanel = lazy(() => import('../help/HelpPanels').then((module) => ({ default: module.AppealPanel })));
const HelpContent = lazy(() => import('../help/HelpPanels').then((module) => ({ default: module.HelpContent })));

type Player = RouterOutputs['user']['me'];

interface Session {
  player: Player;
  credential: CredentialKind;
  signOut: () => void;
}

const SessionContext = createContext<Session | null>(null);

const hasLocalChoice = (key: string) => readStored(key) !== null;

/**
 * A launch Telegram signed over a day ago (the app stayed open, or was restored from memory) is refused: the way on is to
 * open the app again, through its t.me link, or by closing it when that link is unknown.
 */
function LaunchExpired() {
  const { t } = useTranslation();
  const settings = trpc.auth.signInSettings.useQuery(undefined, { retry: false });
  const link = settings.data?.openInTelegram;
  const reopen = () => {
    const close = () => void sendToTelegram('web_app_close');
    if (link) openTelegramLink(link, close);
    else close();
  };
  return (
    <section className="page status-page">
      <p role="alert">{t('signIn.launchExpired')}</p>
      <button type="button" className="button" onClick={reopen} disabled={settings.isPending}>
        {t(link || settings.isPending ? 'signIn.reopen' : 'signIn.close')}
      </button>
    </section>
  );
}

/** Shows the app once the server knows the player; outside Telegram without a session, the sign-in. */
export function PlayerSession({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [credential, setCredential] = useState(() => playerCredential().kind);
  const me = trpc.user.me.useQuery(undefined, { retry: false });
  // the first answer replaces the splash with the whole app (at home, with home's content, which came in the same request):
  // a deferred update, which React renders in slices of a few milliseconds, not one long task (a cache's update is urgent)
  const answered = useDeferredValue(!me.isPending);
  const { setChoice } = useTheme();
  const player = me.data;
  // launched at home: its content is asked for with the session, in the same batched request, rather than one round trip
  // after it (home's cover is the launch's largest picture); a refusal is the session's to explain, so it is dropped here
  const [pathname] = useLocation();
  const [launchedAtHome] = useState(() => pathname === '/');
  useEffect(() => {
    if (!launchedAtHome) return;
    void utils.home.get.prefetch();
    void utils.mining.status.prefetch();
  }, [launchedAtHome, utils]);

  // a player's saved choices follow them to a new device, unless this device already chose
  useEffect(() => {
    if (!player) return;
    if (!hasLocalChoice(LOCALE_STORAGE_KEY) && isLanguage(player.language) && player.language !== currentLanguage())
      void setLanguage(player.language);
    // inside Telegram, a player who never chose on this device sees Telegram's own scheme, not the stored default
    if (!hasLocalChoice(THEME_STORAGE_KEY) && isThemeChoice(player.theme) && !telegramColorScheme()) setChoice(player.theme);
  }, [player, setChoice]);

  const refresh = () => {
    setCredential(playerCredential().kind);
    void utils.invalidate();
  };

  // the states the session shows instead of the app are the page's main content (the app's own <main> is in its layout)
  const splash = <PageSkeleton cover={window.location.pathname === '/' ? shellCover() : null} />;
  if (me.isPending || !answered) return <main>{splash}</main>;

  if (me.error) {
    const unauthorized = appErrorOf(me.error)?.code === 'UNAUTHORIZED' || me.error.data?.httpStatus === 401;
    if (unauthorized && credential !== 'telegram') {
      if (credential === 'web') storePlayerToken(null);
      return (
        <main>
          <Suspense fallback={splash}>
            <SignInPage onSignedIn={refresh} />
          </Suspense>
        </main>
      );
    }
    // inside Telegram a Retry sends the same expired launch again: only a fresh launch signs the player in
    if (unauthorized)
      return (
        <main>
          <LaunchExpired />
        </main>
      );
    // a banned player reads why; a Retry would only be refused again
    if (appErrorOf(me.error)?.code === 'ACCOUNT_BANNED')
      return (
        <main className="page">
          <div className="status-page">
            <ErrorMessage error={me.error} />
          </div>
          {/* where a banned player turns: one appeal against the decision, and the operators' answers to common questions */}
          <Suspense fallback={<Skeleton shape="card" />}>
            <AppealPanel />
            <HelpContent />
          </Suspense>
        </main>
      );
    return (
      <main className="page status-page">
        <ErrorMessage error={me.error} />
        <button type="button" className="button" onClick={() => void me.refetch()}>
          {t('common.retry')}
        </button>
      </main>
    );
  }

  const session: Session = {
    player: me.data,
    credential,
    signOut: () => {
      storePlayerToken(null);
      refresh();
    },
  };
  return (
    <SessionContext.Provider value={session}>
      {me.data.isDemo && (
        <p className="notice" role="note">
          <span className="badge">{t('common.demo')}</span> {t('common.demoHint')}
        </p>
      )}
      {me.data.status === 'frozen' && (
        <p className="notice notice-frozen" role="status">
          {/* the sentence ends the reason itself: an operator's own full stop would double it */}
          {t('account.frozen', { reason: me.data.statusReason.trim().replace(/[.!?؟。]+$/u, '') })}{' '}
          <Link to="/profile/help">{t('help.appealLink')}</Link>
        </p>
      )}
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs <PlayerSession>');
  return session;
}
