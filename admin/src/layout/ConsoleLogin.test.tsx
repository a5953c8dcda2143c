import { screen, waitFor } from '@testing-library/react';
import { adminToken } from '../session';
import { OPERATOR, refusal, renderScreen, type SentRequest } from '../../test/renderScreen';

/** A token the console reads as valid for an hour. */
const TOKEN = ['{"alg":"HS256"}', JSON.stringify({ sub: OPERATOR.id, exp: Math.floor(Date.now() / 1000) + 3600 }), 'signature']
  .map((part, i) => (i < 2 ? Buffer.from(part).toString('base64url') : part))
  .join('.');

/** The server's sign-in for an account with two-step sign-in on: the password alone asks for a code, 123456 is the right one. */
function twoStepLogin({ body }: SentRequest) {
  const { totp } = body as { totp?: string };
  if (!totp) return { totpRequired: true };
  if (totp === '123456') return { token: TOKEN, account: { ...OPERATOR, permissions: ['*'] } };
  return refusal(401, 'This sign-in code is not valid or was already used', 'TOTP_INVALID');
}

describe('signing in with two-step sign-in', () => {
  it('asks for the code after the right password, refuses a wrong code and signs in with the right one', async () => {
    const { user, sent } = renderScreen('/admin/login', { signedIn: false, routes: { 'POST /login': twoStepLogin } });
    await user.type(await screen.findByLabelText(/Username/), OPERATOR.username);
    await user.type(screen.getByLabelText(/Password/), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const code = await screen.findByLabelText(/Sign-in code/);
    expect(screen.getByText('Enter the code from your authenticator app')).toBeInTheDocument();
    expect(adminToken()).toBeNull();
    expect(sent('POST /login')[0]!.body).toEqual({ username: OPERATOR.username, password: 'correct horse battery' });

    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This sign-in code is not valid or was already used')).toBeInTheDocument();
    expect(adminToken()).toBeNull();

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(adminToken()).toBe(TOKEN));
    expect(sent('POST /login').at(-1)!.body).toEqual({ username: OPERATOR.username, password: 'correct horse battery', totp: '123456' });
  });

  it('asks for the code, and says a wrong one, in Persian', async () => {
    const { user } = renderScreen('/admin/login', { signedIn: false, locale: 'fa', routes: { 'POST /login': twoStepLogin } });
    await user.type(await screen.findByLabelText(/نام.کاربری/), OPERATOR.username);
    await user.type(screen.getByLabelText(/رمز عبور/, { selector: 'input' }), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'ورود' }));

    const code = await screen.findByLabelText(/کد ورود/);
    expect(screen.getByText('کد برنامهٔ احراز هویت خود را وارد کنید')).toBeInTheDocument();
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'بررسی' }));
    expect(await screen.findByText('این کد ورود نامعتبر است یا قبلاً استفاده شده است')).toBeInTheDocument();
  });
});
