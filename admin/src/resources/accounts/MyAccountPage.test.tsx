import { screen, waitFor, within } from '@testing-library/react';
import type { TotpStatus } from '@gift/server';
import { refusal, renderScreen, type SentRequest } from '../../../test/renderScreen';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const RECOVERY = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '2')}`);

/** The operator's own two-step sign-in on a fake server: off (and required, as in production for money), 123456 confirms. */
function twoStepServer() {
  let status: TotpStatus = { enabled: false, required: true, recoveryCodesLeft: 0 };
  return {
    'GET /accounts/me/totp': () => status,
    'POST /accounts/me/totp': {
      secret: SECRET,
      otpauthUrl: `otpauth://totp/x?secret=${SECRET}`,
      qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
    },
    'PUT /accounts/me/totp': ({ body }: SentRequest) => {
      if ((body as { totp: string }).totp !== '123456') return refusal(400, 'This code is not valid or was already used', 'BAD_INPUT');
      status = { enabled: true, required: false, recoveryCodesLeft: 10 };
      return { enabled: true, recoveryCodes: RECOVERY };
    },
    'DELETE /accounts/me/totp': () => {
      status = { enabled: false, required: true, recoveryCodesLeft: 0 };
      return { enabled: false };
    },
  };
}

describe("the operator's own account page", () => {
  it('enrols with the QR code and a first code, shows the recovery codes once, and turns two-step sign-in off', async () => {
    const { user, sent } = renderScreen('/admin/account', { routes: twoStepServer() });
    expect(await screen.findByText(/Your access moves money/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));
    // the server reads a JSON body on every write: an empty one starts enrolling
    await waitFor(() => expect(sent('POST /accounts/me/totp')[0]?.body).toEqual({}));

    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(screen.getByText(SECRET)).toBeInTheDocument();
    const code = screen.getByLabelText('Code from your app');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('This code is not valid or was already used')).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(RECOVERY);
    expect(await screen.findByText(/Recovery codes left: 10/)).toBeInTheDocument();
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(screen.queryByText(/Your access moves money/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();

    await user.type(screen.getByLabelText('Code from your app'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Turn on two-step sign-in' })).toBeInTheDocument();
    expect(sent('DELETE /accounts/me/totp')[0]!.body).toEqual({ totp: '654321' });
  });

  it('reads in Persian', async () => {
    renderScreen('/admin/account', { routes: twoStepServer(), locale: 'fa' });
    expect(await screen.findByRole('button', { name: 'روشن کردن ورود دومرحله‌ای' })).toBeInTheDocument();
    expect(screen.getByText(/دسترسی شما پول جابه‌جا می‌کند/)).toBeInTheDocument();
  });
});
