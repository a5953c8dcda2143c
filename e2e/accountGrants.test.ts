// Access that moves money waits for a second operator: what the console shows of it, in English and Persian.
import type { Permission } from '@gift/shared';
import { AccountModel } from '../server/src/modules/accounts/account.model';
import { createAccount } from '../server/src/modules/accounts/accounts.service';
import { useProduct } from './fixture';
import { shot } from './support';

jest.setTimeout(300_000);

const ASKER = 'head-of-support';
const SECOND = 'finance-lead';

const product = useProduct({
  operators: [
    { username: ASKER, permissions: ['accounts:write', 'gifts:write', 'users:read'] },
    { username: SECOND, permissions: ['*'] },
  ],
  // the head of support makes a new operator who may read players at once and give gifts once a second operator agrees
  before: () => askerCreates('new-support', ['users:read', 'gifts:write']),
});

/** The head of support creates an operator account (as `ASKER` holding `alsoHeld` too). */
async function askerCreates(username: string, permissions: Permission[], alsoHeld: Permission[] = []) {
  const asker = (await AccountModel.findOne({ username: ASKER }).lean())!;
  await createAccount(
    { username, password: 'the first password they were given', permissions, enabled: true, telegramId: null },
    { id: String(asker._id), username: ASKER, permissions: [...asker.permissions, ...alsoHeld] },
  );
}

const signIn = (username: string, persian = false) => product.signInOperator(username, { signOutFirst: true, persian });

describe('access waiting for a second operator', () => {
  it('shows who created the account and what waits; the asker cannot approve it', async () => {
    const page = await signIn(ASKER);
    await page.goto(`${product.base}/admin/accounts`);
    await page.getByText('Gifts: read and write (waiting for approval)').waitFor();
    await page.getByRole('link', { name: 'Access waiting (1)' }).waitFor();
    await page.locator('td.column-createdBy', { hasText: ASKER }).waitFor();
    await shot(page, 'console-accounts-access-waiting');
    await page.getByRole('link', { name: 'Access waiting (1)' }).click();
    await page.getByRole('cell', { name: 'new-support' }).waitFor();
    // their own request: the Approve button is off
    await expect(page.getByRole('button', { name: 'Approve' }).isDisabled()).resolves.toBe(true);
    await page.close();
  });

  it('is approved by a second operator after a confirmation, and the account page says who gave each permission', async () => {
    const page = await signIn(SECOND);
    await page.goto(`${product.base}/admin/account-grants`);
    await page.getByRole('cell', { name: 'new-support' }).waitFor();
    await page.getByText('Gifts: read and write').first().waitFor();
    await shot(page, 'console-account-grant-waiting');
    await page.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Give this access?').waitFor();
    await dialog.getByText(/Give new-support Gifts: read and write\?/).waitFor();
    await page.waitForTimeout(600);
    await shot(page, 'console-account-grant-confirm');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved: the account holds it now').waitFor();
    const account = (await AccountModel.findOne({ username: 'new-support' }).lean())!;
    expect(account.permissions).toEqual(['users:read', 'gifts:write']);
    expect(account.pendingGrant).toBeNull();

    await page.goto(`${product.base}/admin/accounts/${String(account._id)}`);
    const access = page.getByTestId('account-access');
    await access.getByText(`Created by: ${ASKER}`).waitFor();
    await access.getByText(`given by ${ASKER} · approved by ${SECOND}`, { exact: false }).waitFor();
    await shot(page, 'console-account-access');
    await page.close();
  });

  it('reads in Persian', async () => {
    await askerCreates('second-support', ['withdraws:write'], ['withdraws:write']);
    const page = await signIn(SECOND, true);
    await page.goto(`${product.base}/admin/account-grants`);
    await page.getByRole('cell', { name: 'second-support' }).waitFor();
    await shot(page, 'console-fa-account-grant-list');
    await page
      .getByRole('row', { name: /second-support/ })
      .getByRole('button', { name: 'تأیید' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('این دسترسی داده شود؟').waitFor();
    await dialog.getByText(/second-support/).waitFor();
    // MUI's dialog fades in (225 ms): the picture waits for it
    await page.waitForTimeout(600);
    await shot(page, 'console-fa-account-grant-waiting');
    await dialog.getByRole('button', { name: 'انصراف' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await AccountModel.findOne({ username: 'second-support' }).lean())!.permissions).toEqual([]);
    await page.close();
  });

  it('raised no script error and showed no label without a translation', () => {
    expect(product.pageErrors).toEqual([]);
    expect(product.missingTranslations).toEqual([]);
  });
});
