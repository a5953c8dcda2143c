import type { Page } from 'playwright-core';
import { AppConfigModel } from '../server/src/modules/config/appConfig.model';
import { CategoryModel } from '../server/src/modules/content/content.models';
import { useProduct } from './fixture';
import { shot } from './support';

// a real browser against a live server: minutes, not the 5 s of unit tests
jest.setTimeout(240_000);

const OPERATOR = 'e2e-operator';

// development without a bot token: the server accepts the demo player a plain browser asks for
const product = useProduct({ demo: true, operators: [{ username: OPERATOR, permissions: ['*'] }] });

/** The player app's five tabs, as the main navigation names them. */
const tabNames = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();

describe('the console at /admin', () => {
  it('signs an operator in through the login form and shows the users and missions lists', async () => {
    const page = await product.openSignedOutConsole();
    await shot(page, 'admin-login');
    await product.submitSignIn(page, OPERATOR);

    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Logout' }).waitFor();
    // Logout and the pages' own items are drawn at once, a resource's item once the account's access to it is read: the
    // labels are read after that
    for (const resource of ['Users', 'Missions']) await menu.getByRole('menuitem', { name: resource, exact: true }).waitFor();
    // a menu item's text ends with its live count where it has one (a badge: "Withdraws1"); the labels are before it
    const labels = (await menu.getByRole('menuitem').allTextContents()).map((text) => text.replace(/\d+$/, ''));
    expect(labels).toEqual(expect.arrayContaining(['Dashboard', 'Users', 'Missions', 'Withdraws', 'App Config', 'Logout']));
    await page.getByTestId('figure-dashboard.players').filter({ hasText: /^\d+$/ }).waitFor();
    await shot(page, 'admin-dashboard');

    await menu.getByRole('menuitem', { name: 'Users', exact: true }).click();
    await page.waitForURL(`${product.base}/admin/users`);
    await page.getByText('Sara Ahmadi').waitFor();
    await expect(page.getByRole('columnheader', { name: 'Created' }).count()).resolves.toBe(1);
    await shot(page, 'admin-users');

    await menu.getByRole('menuitem', { name: 'Missions', exact: true }).click();
    await page.waitForURL(`${product.base}/admin/missions`);
    await page.getByText('Claim your welcome bonus').waitFor();
    await shot(page, 'admin-missions');

    // its name carries the live count of withdrawals waiting ("Withdraws 1 withdrawal waiting…")
    await menu.getByRole('menuitem', { name: /^Withdraws/ }).click();
    await page.waitForURL(/\/admin\/withdraw(\?.*)?$/);
    await page.getByRole('cell', { name: 'Pending', exact: true }).first().waitFor();
    await shot(page, 'admin-withdraws-pending');

    await page.goto(`${product.base}/admin/withdraw/done`);
    await page.getByText('Done withdraws').first().waitFor();
    await page.getByRole('tab', { name: /^Pending \(\d+\)$/ }).waitFor();
    await shot(page, 'admin-withdraws-done');

    // App Config is one form, loaded from the singleton 'current'
    await menu.getByRole('menuitem', { name: 'App Config', exact: true }).click();
    await page.waitForURL(`${product.base}/admin/app-config`);
    await expect(page.getByLabel('Bot username').inputValue()).resolves.toBe('GiftRewardsBot');
    await shot(page, 'admin-app-config');
    await page.getByLabel('Earn duration (hours)').fill('12');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(
      AppConfigModel.findOne({ key: 'app' })
        .lean()
        .then((config) => config?.earnDurationHours),
    ).resolves.toBe(12);
    await page.close();
  });

  it('refuses a wrong password and stays on the login form', async () => {
    const page = await product.openSignedOutConsole();
    await product.submitSignIn(page, OPERATOR, 'not the password');
    await page.getByText('Invalid username or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.close();
  });
});

describe('the user app at /', () => {
  it('opens for the demo player in a plain browser, in English, with the five tabs', async () => {
    const page = await product.openPage();
    await page.goto(`${product.base}/`);
    await page.getByText('Demo player', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await expect(tabNames(page)).resolves.toEqual(['Tasks', 'Staking', 'Invite a friend', 'Currency', 'Profile']);
    await expect(page.evaluate(() => [document.documentElement.dir, document.documentElement.dataset.theme])).resolves.toEqual([
      'ltr',
      'dark',
    ]);
    // the seeded categories, with the demo player's progress, come from home.get
    await page.getByRole('link', { name: /Get started/ }).waitFor();
    await page.getByRole('link', { name: /Social/ }).waitFor();
    await shot(page, 'client-home-en');

    await page.getByRole('link', { name: 'Currency' }).click();
    await page.getByText('Toncoin').waitFor();
    await shot(page, 'client-currency-en');

    const category = await CategoryModel.findOne({ title: 'Get started' }).lean();
    await page.goto(`${product.base}/categories/${String(category!._id)}/missions`);
    await page.getByText('Claim your welcome bonus').waitFor();
    await shot(page, 'client-missions-en');

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByTestId('player-name').waitFor();
    await shot(page, 'client-profile-en');
    await page.close();
  });

  it('turns right-to-left in Persian, and remembers it on the next visit', async () => {
    const page = await product.openPage();
    await page.goto(`${product.base}/profile/settings`);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.getByText('ذخیره شد').waitFor();
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe('rtl');
    await shot(page, 'client-settings-fa');

    await page.goto(`${product.base}/`);
    await page.getByRole('heading', { name: 'ماموریت‌ها' }).waitFor();
    // what operators wrote, in Persian where they wrote it
    await page.getByRole('link', { name: /شروع کار/ }).waitFor();
    await page.getByRole('img', { name: 'به Gift Rewards خوش آمدید' }).waitFor();
    await expect(tabNames(page)).resolves.toEqual(['ماموریت‌ها', 'استیکینگ', 'دعوت از دوستان', 'ارزها', 'پروفایل']);
    await expect(page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).resolves.toEqual(['rtl', 'fa']);
    await shot(page, 'client-home-fa');

    await page.goto(`${product.base}/profile`);
    await page.getByTestId('player-name').waitFor();
    await shot(page, 'client-profile-fa');

    await page.getByRole('link', { name: 'تنظیمات' }).click();
    await page.getByRole('button', { name: 'English' }).click();
    // English texts load on demand: the page turns once they are shown, and the choice is saved then
    await page.getByText('Saved').waitFor();
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe('ltr');
    await page.close();
  });

  it("shows 'Page Not Found' at an unknown address, and the light theme when chosen", async () => {
    const page = await product.openPage();
    await page.goto(`${product.base}/no/such/page`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.goto(`${product.base}/profile/settings`);
    await page.getByRole('button', { name: 'Light' }).click();
    await expect(page.evaluate(() => getComputedStyle(document.body).backgroundColor)).resolves.toBe('rgb(237, 242, 235)');
    await shot(page, 'client-settings-light');
    await page.close();
  });

  it('raised no script errors in any page', () => {
    expect(product.pageErrors).toEqual([]);
  });
});
