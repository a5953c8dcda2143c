import { asciiDigits } from '@gift/shared/numerals';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { telegramUsername, verifyLoginCodeInput } from '@gift/shared/schemas/player';
import { storePlayerToken, trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';

/** Outside Telegram: Telegram username, then the 6-digit code the bot sends to that chat. */
export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [code, setCode] = useState('');
  /** The username the code went to, and the id of that request, which the code is checked with. */
  const [sent, setSent] = useState<{ username: string; requestId: string } | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const requestCode = trpc.auth.requestLoginCode.useMutation();
  const verifyCode = trpc.auth.verifyLoginCode.useMutation();

  const askForCode = (event: FormEvent) => {
    event.preventDefault();
    const parsed = telegramUsername.safeParse(username);
    if (!parsed.success) return setLocalError(parsed.error.issues[0]?.message ?? t('errors.BAD_INPUT'));
    setLocalError(null);
    requestCode.mutate({ username: parsed.data }, { onSuccess: ({ requestId }) => setSent({ username: parsed.data, requestId }) });
  };

  const signIn = (event: FormEvent) => {
    event.preventDefault();
    const parsed = verifyLoginCodeInput.safeParse({ ...sent, code });
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
      <p className="muted">{t('signIn.intro')}</p>
      {sent === null ? (
        <form className="card menu" onSubmit={askForCode} noValidate>
          <label className="field">
            <span>{t('signIn.username')}</span>
            <input
              name="username"
              dir="ltr"
              autoComplete="username"
              autoCapitalize="none"
              placeholder="@username"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          </label>
          {localError && (
            <p className="error-text" role="alert">
              {localError}
            </p>
          )}
          {requestCode.error && <ErrorMessage error={requestCode.error} />}
          <button type="submit" className="button" disabled={requestCode.isPending}>
            {t('signIn.sendCode')}
          </button>
        </form>
      ) : (
        <form className="card menu" onSubmit={signIn} noValidate>
          <p>{t('signIn.codeSent', { username: sent.username })}</p>
          <label className="field">
            <span>{t('signIn.code')}</span>
            <input
              name="code"
              dir="ltr"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(asciiDigits(event.target.value).replace(/\D/g, ''))}
            />
          </label>
          {localError && (
            <p className="error-text" role="alert">
              {localError}
            </p>
          )}
          {verifyCode.error && <ErrorMessage error={verifyCode.error} />}
          <button type="submit" className="button" disabled={verifyCode.isPending || code.length !== 6}>
            {t('signIn.verify')}
          </button>
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
