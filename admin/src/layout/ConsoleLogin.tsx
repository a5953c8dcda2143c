import { useState } from 'react';
import { Form, LocalesMenuButton, Login, PasswordInput, TextInput, required, useLogin, useNotify, useTranslate } from 'react-admin';
import { Box, Button, CardContent, CircularProgress, Typography } from '@mui/material';
import { TotpRequired } from '../authProvider';

interface SignIn {
  username: string;
  password: string;
  totp?: string;
}

/**
 * The username and password; when the account has two-step sign-in on, the server answers that a code is needed and the same form
 * asks for the 6-digit code of the operator's app (or a recovery code), then signs in with all three.
 */
function ConsoleLoginForm() {
  const [askingCode, setAskingCode] = useState(false);
  const [loading, setLoading] = useState(false);
  const login = useLogin();
  const notify = useNotify();
  const translate = useTranslate();

  const submit = (values: Record<string, unknown>) => {
    setLoading(true);
    const { username, password, totp } = values as unknown as SignIn;
    login(askingCode ? { username, password, totp } : { username, password })
      .catch((error: unknown) => {
        if (error instanceof TotpRequired) return setAskingCode(true);
        const message = error instanceof Error && error.message ? error.message : 'ra.auth.sign_in_error';
        notify(message, { type: 'error', messageArgs: { _: message } });
      })
      .finally(() => setLoading(false));
  };

  return (
    <Form onSubmit={submit} mode="onChange" noValidate>
      <CardContent sx={{ width: 300, pb: 2 }}>
        <TextInput autoFocus source="username" label="ra.auth.username" autoComplete="username" validate={required()} />
        <PasswordInput source="password" label="ra.auth.password" autoComplete="current-password" validate={required()} />
        {askingCode && (
          <>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {translate('twoStep.loginAsked')}
            </Typography>
            <TextInput
              autoFocus
              source="totp"
              label="twoStep.loginCode"
              helperText="twoStep.loginCodeHelp"
              autoComplete="one-time-code"
              slotProps={{ htmlInput: { inputMode: 'numeric', dir: 'ltr' } }}
              validate={required()}
            />
          </>
        )}
        <Button variant="contained" type="submit" color="primary" disabled={loading} fullWidth sx={{ mt: 2 }}>
          {loading ? <CircularProgress size={19} thickness={3} /> : translate(askingCode ? 'twoStep.verify' : 'ra.auth.sign_in')}
        </Button>
      </CardContent>
    </Form>
  );
}

/** react-admin's sign-in page with the language menu under the form, so an operator can choose before signing in. */
export function ConsoleLogin() {
  return (
    <Login>
      <ConsoleLoginForm />
      <Box sx={{ display: 'flex', justifyContent: 'center', pb: 1 }}>
        <LocalesMenuButton />
      </Box>
    </Login>
  );
}
