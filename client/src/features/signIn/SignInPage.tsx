import { asciiDigits } from '@gift/shared/numerals';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translator';
import { LANGUAGES } from '@gift/shared/constants';
import { setLanguage } from '../../lib/i18n';
import { useFormat } from '../../lib/format';
import { useNow } from '../../ui/countdown';
import { telegramUsername, verifyLoginCodeInput } from '@gift/shared/schemas/player';
import { storePlayerToken, trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { TextField } from '../../ui/fields';
import '../profile/settingsLocales';

/** The username as Telegram spells it (Latin letters whatever the page's language), never capitalised by the keyboard. */
const USERNAME_INPUT = {
  name: 'username',
  dir: 'ltr',
  autoComplete: 'username',
  autoCapitalize: 'none',
  placeholder: '@username',
} as const;
/** The 6 digits the bot sent, which the phone may offer to fill in. */
const CODE_INPUT = { name: 'code', dir: 'ltr', inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } as const;

/** The app's name and logo, the way into Telegram, and the language of the page. */
function SignInHeader() {
  const { t, i18n } = useTranslation();
  const settings = trpc.auth.signInSettings.useQuery(undefined, { retry: false });
  return (
    <>
      <div className="sign-in-brand">
        <img src="/icon-192.png" alt="" width={64} height={64} />
        <strong>{t('signIn.appName')}</strong>
      </div>
      <div className="segmented" role="group" aria-label={t('settings.language')}>
        {LANGUAGES.map((code) => (
          <button key={code} type="button" lang={code} aria-pressed={i18n.language === code} onClick={() => void setLanguage(code)}>
            {t(`settings.languages.${code}`)}
          </button>
        ))}
      </div>
      {settings.data?.openInTelegram && (
        <a className="button" href={settings.data.openInTelegram}>
          {t('signIn.openInTelegram')}
        </a>
      )}
    </>
  );
}

/**
 * Outside Telegram: Telegram username, then the 6-digit code the bot sends to that chat. The server answers alike whether or
 * not a code went out (so nobody learns which usernames play), so the page says what is true either way, and counts down to
 * when another code may be asked for.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [username, setUsername] = useState('');
  const [code, setCode] = useState('');
  /** The username the code went to, and the id of that request, which the code is checked with. */
  const [sent, setSent] = useState<{ username: string; requestId: string; minutes: number; resendAt: number } | null>(null);
  const now = useNow(sent !== null);
  const resendLeft = sent ? sent.resendAt - now : 0;
  const [localError, setLocalError] = useState<string | null>(null);
  const requestCode = trpc.auth.requestLoginCode.useMutation();
  const verifyCode = trpc.auth.verifyLoginCode.useMutation();

  const askForCode = (event: FormEvent) => {
    event.preventDefault();
    const parsed = telegramUsername.safeParse(username);
    if (!parsed.success) return setLocalError(parsed.error.issues[0]?.message ?? t('errors.BAD_INPUT'));
    setLocalError(null);
    requestCode.mutate(
      { username: parsed.data },
      {
        onSuccess: ({ requestId, expiresInSeconds, resendInSeconds }) =>
          setSent({
            username: parsed.data,
            requestId,
            minutes: Math.round(expiresInSeconds / 60),
            resendAt: Date.now() + resendInSeconds * 1000,
          }),
      },
    );
  };
  const askAgain = () => {
    if (!sent || resendLeft > 0) return;
    setCode('');
    verifyCode.reset();
    requestCode.mutate(
      { username: sent.username },
      {
        onSuccess: ({ requestId, resendInSeconds }) => setSent({ ...sent, requestId, resendAt: Date.now() + resendInSeconds * 1000 }),
      },
    );
  };

  const signIn = (event: FormEvent) => {
    event.preventDefault();
    const parsed = verifyLoginCodeInput.safeParse({ username: sent?.username, requestId: sent?.requestId, code });
    if (!parsed.success) return setLocalError(t('errors.INCORRECT_CODE'));
    setLocalError(null);
    verifyCode.mutate(parsed.data, {
      onSuccess: ({ token }) => {
        storePlayerToken(token);
        onSignedIn();
      },
    });
  };

  return (
    <section className="page">
      <header className="page-header">
        <h1>{t('signIn.title')}</h1>
      </header>
      <SignInHeader />
      <p className="muted">{t('signIn.intro')}</p>
      {sent === null ? (
        <form className="card menu" onSubmit={askForCode} noValidate>
          <TextField
            {...USERNAME_INPUT}
            label={t('signIn.username')}
            error={localError}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
          {requestCode.error && <ErrorMessage error={requestCode.error} />}
          <button type="submit" className="button" disabled={requestCode.isPending}>
            {t('signIn.sendCode')}
          </button>
        </form>
      ) : (
        <form className="card menu" onSubmit={signIn} noValidate>
          <p>{t('signIn.codeSent', { username: sent.username, minutes: sent.minutes })}</p>
          <TextField
            {...CODE_INPUT}
            label={t('signIn.code')}
            error={localError}
            value={code}
            onChange={(event) => setCode(asciiDigits(event.target.value).replace(/\D/g, ''))}
          />
          {verifyCode.error && <ErrorMessage error={verifyCode.error} />}
          <button type="submit" className="button" disabled={verifyCode.isPending || code.length !== 6}>
            {t('signIn.verify')}
          </button>
          {resendLeft > 0 ? (
            <p className="muted" role="timer">
              {t('signIn.resendIn', { time: format.countdown(resendLeft) })}
            </p>
          ) : (
            <button type="button" className="button button-ghost" disabled={requestCode.isPending} onClick={askAgain}>
              {t('signIn.resend')}
            </button>
          )}
          <button
            type="button"
            className="button button-ghost"
            onClick={() => {
              setSent(null);
              setCode('');
              verifyCode.reset();
            }}
          >
            {t('signIn.changeUsername')}
          </button>
        </form>
      )}
    </section>
  );
}
