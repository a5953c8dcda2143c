import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { fetchUtils, Loading, Title, useGetIdentity, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import type { TotpConfirmation, TotpEnrolment, TotpStatus } from '@gift/server';
import { API_URL, inConsoleLanguage } from '../../dataProvider';
import { i18nProvider } from '../../i18n/i18nProvider';
import { adminToken } from '../../session';
import { AlertSettings } from './AlertSettings';
import { failureNotice } from '../failureNotice';
import { Sessions } from './Sessions';
import { SignInHistory } from './SignInHistory';

/** A call to the operator's own two-step sign-in (/accounts/me/totp), with their token; refusals in the console's language. */
async function totpCall<Answer>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', totp?: string): Promise<Answer> {
  const headers = new Headers({ Accept: 'application/json', Authorization: `Bearer ${adminToken() ?? ''}` });
  // the server takes a JSON body on every write, an empty one to start enrolling
  const body = method === 'GET' ? undefined : JSON.stringify(totp === undefined ? {} : { totp });
  try {
    return (await fetchUtils.fetchJson(`${API_URL}/accounts/me/totp`, { method, headers, body })).json as Answer;
  } catch (error) {
    throw inConsoleLanguage(error, i18nProvider.getLocale());
  }
}

/** The code field and its button: a 6-digit code of the operator's app (or a recovery code, where the server takes one). */
function CodeForm({ label, action, onCode }: { label: string; action: string; onCode: (code: string) => Promise<void> }) {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    void onCode(code.trim()).finally(() => setBusy(false));
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        size="small"
        label={translate(label)}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr', maxLength: 32 } }}
      />
      <Button type="submit" variant="contained" disabled={busy || !code.trim()}>
        {translate(action)}
      </Button>
    </Box>
  );
}

/** Two-step sign-in (TOTP) of the signed-in operator: enrol with a QR code and a first code, keep the recovery codes, turn it off. */
function TwoStepSignIn() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const [status, setStatus] = useState<TotpStatus | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const refused = useCallback((error: unknown) => notify(...failureNotice(error)), [notify]);
  const reload = useCallback(() => totpCall<TotpStatus>('GET').then(setStatus, refused), [refused]);
  useEffect(() => void reload(), [reload]);

  if (!status) return <Loading />;
  const start = () => totpCall<TotpEnrolment>('POST').then(setEnrolment, refused);
  const confirm = async (code: string) => {
    try {
      const confirmed = await totpCall<TotpConfirmation>('PUT', code);
      setEnrolment(null);
      setRecoveryCodes(confirmed.recoveryCodes);
      notify('twoStep.turnedOn', { type: 'success' });
      await reload();
    } catch (error) {
      refused(error);
    }
  };
  const turnOff = async (code: string) => {
    try {
      await totpCall('DELETE', code);
      notify('twoStep.turnedOff', { type: 'info' });
      await reload();
    } catch (error) {
      refused(error);
    }
  };

  return (
    <Card>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6">{translate('twoStep.title')}</Typography>
          <Typography variant="body2">{translate('twoStep.intro')}</Typography>
          {status.required && <Alert severity="warning">{translate('twoStep.required')}</Alert>}
          {recoveryCodes && (
            <Alert severity="info" action={<Button onClick={() => setRecoveryCodes(null)}>{translate('twoStep.saved')}</Button>}>
              <Typography variant="subtitle2">{translate('twoStep.recoveryTitle')}</Typography>
              <Typography variant="body2">{translate('twoStep.recoveryHelp')}</Typography>
              <Box
                component="ul"
                aria-label={translate('twoStep.recoveryTitle')}
                dir="ltr"
                sx={{ fontFamily: 'monospace', columns: 2, pl: 2 }}
              >
                {recoveryCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </Box>
            </Alert>
          )}
          {status.enabled ? (
            <>
              <Alert severity="success">
                {translate('twoStep.on', { count: status.recoveryCodesLeft.toLocaleString(locale === 'fa' ? 'fa-IR' : 'en-US') })}
              </Alert>
              <Typography variant="body2">{translate('twoStep.turnOffHelp')}</Typography>
              <CodeForm label="twoStep.code" action="twoStep.turnOff" onCode={turnOff} />
            </>
          ) : enrolment ? (
            <>
              <Typography variant="body2">{translate('twoStep.scan')}</Typography>
              <Box component="img" src={enrolment.qrDataUrl} alt={translate('twoStep.qrAlt')} sx={{ width: 200, height: 200 }} />
              <Typography variant="body2">
                {translate('twoStep.key')}:{' '}
                <Box component="code" dir="ltr" sx={{ wordBreak: 'break-all' }}>
                  {enrolment.secret}
                </Box>
              </Typography>
              <CodeForm label="twoStep.code" action="twoStep.confirm" onCode={confirm} />
            </>
          ) : (
            <Box>
              <Button variant="contained" onClick={() => void start()}>
                {translate('twoStep.start')}
              </Button>
            </Box>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** /admin/account, from the user menu: the signed-in operator's own settings. */
export function MyAccountPage() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  return (
    <Box sx={{ maxWidth: 640, mt: 2 }}>
      <Title title="twoStep.myAccount" />
      {identity && (
        <Typography variant="subtitle1" sx={{ mb: 1 }}>
          {translate('twoStep.signedInAs', { name: identity.fullName ?? '' })}
        </Typography>
      )}
      <TwoStepSignIn />
      <AlertSettings />
      <Sessions mine />
      <SignInHistory mine />
    </Box>
  );
}
