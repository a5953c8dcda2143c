// An operator turns on two-step sign-in from the user menu and signs in with a code their app would show, in a real Chromium.
import type { Page } from 'playwright-core';
import { totpCodeAt as codeAt } from '../server/test/totp';
import { useProduct } from './fixture';
import { PHONE, shot } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'two-step-operator';
const product = useProduct({ operators: [{ username: OPERATOR, permissions: ['gifts:write', 'users:read'] }] });

/** Opens My account from the user menu. */
async function openMyAccount(page: Page) {
  await page.getByRole('button', { name: /profile|پروفایل/i }).click();
  await page.getByRole('menuitem', { name: /My account|حساب من/ }).click();
  await page.waitForURL(/\/admin\/account$/);
}

describe('two-step sign-in', () => {
  /** The recovery codes shown at enrolment, for the next test. */
  let recoveryCodes: string[] = [];

  it('is turned on from My account with the QR code and a first code, and then sign-in asks for a code', async () => {
    const page = await product.signInOperator(OPERATOR, { signOutFirst: true });
    await openMyAccount(page);
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    const secret = (await page.locator('#main-content code').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'console-two-step-enrol');

    await page.getByLabel('Code from your app').fill(await codeAt(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor();
    recoveryCodes = await codes.getByRole('listitem').allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByText('Recovery codes left: 10').waitFor();
    await shot(page, 'console-two-step-recovery-codes');
    await page.close();

    // signing in again: the password alone asks for the code; the next step's code lets the operator in
    const again = await product.openSignedOutConsole();
    await product.submitSignIn(again, OPERATOR);
    const code = again.getByLabel('Sign-in code');
    await code.waitFor();
    await shot(again, 'console-two-step-sign-in');
    await code.fill(await codeAt(secret, 30));
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.waitForURL(`${product.base}/admin/`);
    await again.close();
  });

  it('asks for the code and shows My account in Persian on a phone; a recovery code signs in', async () => {
    const page = await product.openSignedOutConsole(PHONE);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'فارسی' }).click();
    await product.submitSignIn(page, OPERATOR);
    const code = page.getByLabel('کد ورود');
    await code.waitFor();
    await shot(page, 'console-two-step-sign-in-fa-phone');
    await code.fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'بررسی' }).click();
    await page.waitForURL(`${product.base}/admin/`);

    await openMyAccount(page);
    await page.getByText('کدهای بازیابی باقی‌مانده: ۹').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'console-two-step-my-account-fa-phone');
    await page.close();
  });
});
