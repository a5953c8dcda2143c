// Operator security in a real Chromium: an operator reads their sign-in history and signs out a session at another desk (which
// returns to sign-in), and an operator with the accounts permission sees a colleague's sessions and history, signs them out, and
// meets the password policy, in English and in Persian, at 1280×800 and 390×844.
import type { Page } from 'playwright-core';
import { useProduct } from './fixture';
import { DESKTOP, fits, PHONE, shot } from './support';

jest.setTimeout(300_000);

const LEAD = 'security-lead';
const CLERK = 'security-clerk';
const product = useProduct({
  operators: [
    { username: LEAD, permissions: ['*'] },
    { username: CLERK, permissions: ['users:read'] },
  ],
});

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  // this item's labels; others (sections being built beside it, the signed-out console's "Please sign in") are not its own
  expect(product.missingTranslations.filter((missing) => /operatorSecurity|accounts\.|twoStep/.test(missing))).toEqual([]);
});

/** The console in this language from now on (its saved choice), the page read again. */
async function inLanguage(page: Page, language: 'en' | 'fa') {
  await page.evaluate((chosen) => localStorage.setItem('RaStore.locale', JSON.stringify(chosen)), language);
  await page.reload();
}

/**
 * The security sections and the access beside the form are within the screen. (The account form itself is 15 px wider than a 390 px
 * screen, with or without them: its permissions field; left to the form's owner.)
 */
async function sectionsFit(page: Page) {
  const rights = await page.evaluate(() =>
    ['two-step-reset', 'sessions', 'sign-in-history', 'account-access'].map(
      (id) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().right ?? Infinity,
    ),
  );
  for (const right of rights) expect(right).toBeLessThanOrEqual(PHONE.width);
}

/** A list's rows, once there are `count` of them. */
async function rowsOf(page: Page, name: string, count: number) {
  const rows = page.getByRole('list', { name }).getByRole('listitem');
  await page.waitForFunction(([label, wanted]) => document.querySelectorAll(`[aria-label="${label}"] > li`).length === wanted, [
    name,
    count,
  ] as const);
  return rows;
}

describe('my sessions and sign-in history', () => {
  it('shows a wrong password and both desks; signing out the other desk sends it back to sign-in', async () => {
    const refused = await product.openSignedOutConsole();
    await product.submitSignIn(refused, CLERK, 'not the password at all');
    await refused.getByText('Invalid username or password').waitFor();
    await refused.close();
    // the same operator at another desk: a browser of its own
    const otherDesk = await product.signInOperator(CLERK, { ownBrowser: true });
    const page = await product.signInOperator(CLERK, { signOutFirst: true });

    await page.getByRole('button', { name: /profile/i }).click();
    await page.getByRole('menuitem', { name: 'My account' }).click();
    const sessions = await rowsOf(page, 'Signed-in sessions', 2);
    await sessions.filter({ hasText: 'This session' }).getByText('Chrome · Linux').waitFor();
    const history = await rowsOf(page, 'Sign-in history', 3);
    expect(await history.allInnerTexts()).toEqual([
      expect.stringContaining('Signed in'),
      expect.stringContaining('Signed in'),
      expect.stringContaining('Wrong password'),
    ]);
    await shot(page, 'console-security-my-account');

    await sessions.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Sessions signed out: 1').waitFor();
    await rowsOf(page, 'Signed-in sessions', 1);
    // the other desk's next request is refused: its console returns to sign-in
    await otherDesk.goto(`${product.base}/admin/users`);
    await otherDesk.waitForURL(/\/admin\/login$/);

    await page.setViewportSize(PHONE);
    await fits(page);
    await shot(page, 'console-security-my-account-phone');

    await page.setViewportSize(DESKTOP);
    await inLanguage(page, 'fa');
    await page.getByRole('list', { name: 'تاریخچهٔ ورود' }).getByText('گذرواژهٔ نادرست').waitFor();
    await page.getByText('همین نشست').waitFor();
    // dates in Persian digits
    expect(await page.getByRole('list', { name: 'تاریخچهٔ ورود' }).getByRole('listitem').first().innerText()).toMatch(/[۰-۹]/);
    await shot(page, 'console-security-my-account-fa');
    await inLanguage(page, 'en');
    await page.close();
  });
});

describe("a colleague's account, for an operator with the accounts permission", () => {
  it('shows their sessions and history, signs them out, and refuses a common password, in English and Persian on a phone', async () => {
    const clerkDesk = await product.signInOperator(CLERK, { ownBrowser: true });
    const page = await product.signInOperator(LEAD, { signOutFirst: true, viewport: PHONE });
    await page.goto(`${product.base}/admin/accounts`);
    await page.getByText(CLERK, { exact: true }).first().click();
    await page.getByText('Off for this account').waitFor();
    // the desk the clerk uses now (and the earlier test's, its tab closed but its session live, when it ran)
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' }).getByRole('listitem');
    await sessions.first().waitFor();
    const live = await sessions.count();
    await page.getByRole('list', { name: 'Sign-in history' }).getByText('Signed in', { exact: true }).first().waitFor();

    await page.locator('input[name="password"]').fill('password1234');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This password is too common or too easy to guess: choose another').waitFor();
    await shot(page, 'console-security-account-phone');
    await sectionsFit(page);

    await page.getByRole('button', { name: 'Sign out all sessions' }).click();
    await page.getByText(`Sessions signed out: ${live}`).waitFor();
    await page.getByText('No session is signed in').waitFor();
    await clerkDesk.goto(`${product.base}/admin/users`);
    await clerkDesk.waitForURL(/\/admin\/login$/);

    await inLanguage(page, 'fa');
    await page.getByText('برای این حساب خاموش است').waitFor();
    await page.locator('input[name="password"]').fill('password1234');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.getByText('این گذرواژه بسیار رایج یا آسان‌حدس است: گذرواژهٔ دیگری برگزینید').waitFor();
    await shot(page, 'console-security-account-fa-phone');
    await sectionsFit(page);

    await page.setViewportSize(DESKTOP);
    await shot(page, 'console-security-account-fa');
    await inLanguage(page, 'en');
    await page.close();
  });
});
