// Issue 34's small console defects in a real Chromium, in English and in Persian, at 1280×800 and 390×844: a player's
// summary keeps a waiting withdrawal apart from what was paid, a clone's title says it is a copy, the broadcast form says
// what its button does without PUBLIC_URL, and Persian date inputs read and take Solar Hijri days.
import type { Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { MissionModel } from '../server/src/modules/missions/mission.models';
import { WalletLinkModel } from '../server/src/modules/wallet/wallet.models';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { createCoin, createManualMission, createPlayer, fund, playerCaller, randomAddress } from '../server/test/factories';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, screenshotPath } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'defects-operator';
let playerId = '';
let missionId = '';
let tab: Page | undefined;
let page: Page;

const product = useProduct({ operators: [{ username: OPERATOR, permissions: ['*'] }], before: seed });

afterAll(async () => {
  await tab?.close();
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** A player with 1,645 GIFT waiting to be withdrawn and 100 paid; a mission to clone. */
async function seed() {
  const coin = await createCoin({ symbol: 'GIFT', name: 'Gift' });
  const player = await createPlayer({ name: 'Sara Waiting' });
  playerId = String(player._id);
  await fund(player._id, coin._id, '2000');
  await WalletLinkModel.create({ address: randomAddress().toRawString(), user: player._id, network: '-239' });
  const request = (amount: string) =>
    playerCaller(player).withdrawals.request({ coinId: coin.id, amount, idempotencyKey: `e2e-${randomBytes(6).toString('hex')}` });
  await request('1645');
  const paid = await request('100');
  await WithdrawalModel.updateOne({ _id: paid.id }, { $set: { status: 'done', txHash: 'ab'.repeat(32), processedAt: new Date() } });
  const { mission } = await createManualMission(coin, 5_000_000, 'Join channel');
  await MissionModel.updateOne({ _id: mission._id }, { $set: { 'fa.title': 'عضویت در کانال' } });
  missionId = String(mission._id);
}

/** Today as the server counts days (UTC), in Gregorian and as the Persian input writes it. */
const TODAY = new Date().toISOString().slice(0, 10);
const todayInPersian = () =>
  new Intl.DateTimeFormat('fa-IR-u-ca-persian', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' })
    .format(new Date(`${TODAY}T00:00:00Z`))
    .replace(/[\u200e\u200f]/g, '');

const WORDS = {
  en: {
    withdrawn: 'Withdrawn',
    pending: 'Pending withdrawals',
    clone: 'Clone',
    title: 'Title',
    faTitle: 'Title in Persian',
    notice: 'This server has no public address (PUBLIC_URL)',
    addFilter: 'Add filter',
    requestedFrom: 'Requested from',
    from: 'From',
  },
  fa: {
    withdrawn: 'برداشت‌شده',
    pending: 'برداشت‌های در انتظار',
    clone: 'شبیه‌سازی',
    title: 'عنوان',
    faTitle: 'عنوان به فارسی',
    notice: 'این سرور نشانی عمومی (PUBLIC_URL) ندارد',
    addFilter: 'اضافه‌کردن فیلتر',
    requestedFrom: 'درخواست از',
    from: 'از',
  },
} as const;

/** The screenshot, taken for looking at; on a phone the page never scrolls sideways. */
async function look(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
  if (page.viewportSize()!.width === PHONE.width)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe.each([
  ['en', 'desktop', DESKTOP],
  ['en', 'phone', PHONE],
  ['fa', 'desktop', DESKTOP],
  ['fa', 'phone', PHONE],
] as const)('in %s on a %s', (language, size, viewport) => {
  const words = WORDS[language];
  const name = (what: string) => `console-defects-${what}-${language}-${size}`;
  const digits = (text: string) => (language === 'fa' ? text.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]!) : text);
  // one sign-in per language (choosing it on the sign-in page); the same tab is then narrowed to a phone's width
  beforeAll(async () => {
    if (size === 'desktop') {
      await tab?.close();
      tab = await product.signInOperator(OPERATOR, { signOutFirst: true, persian: language === 'fa' });
    }
    await tab!.setViewportSize(viewport);
    page = tab!;
  });

  it("shows the player's withdrawn amount (paid) apart from the one still waiting", async () => {
    await page.goto(`${product.base}/admin/users/${playerId}/show`);
    if (size === 'desktop') {
      const row = page.locator('tbody tr').filter({ hasText: 'GIFT' });
      await row.waitFor();
      const headers = await page.locator('thead th').allInnerTexts();
      const cells = await row.locator('td').allInnerTexts();
      expect(cells[headers.findIndex((h) => h.trim() === words.withdrawn)]).toBe(digits('100'));
      expect(cells[headers.findIndex((h) => h.trim() === words.pending)]).toBe(digits('1645'));
    } else {
      const line = language === 'fa' ? 'برداشت‌شده ۱۰۰، در انتظار ۱۶۴۵، هدیه‌ها ۲۰۰۰' : 'Withdrawn 100 · pending 1645 · gifts 2000';
      await page.getByText(line).waitFor();
    }
    await look(page, name('summary'));
  });

  it('clones a mission with its titles marked as a copy', async () => {
    await page.goto(`${product.base}/admin/missions/${missionId}`);
    await page.getByRole('link', { name: words.clone }).click();
    await page.waitForURL(/\/admin\/missions\/create/);
    // the new mission's form, not the edited one's still on screen while the page changes
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="title"]')?.value !== 'Join channel');
    const title = await page.getByLabel(words.title, { exact: true }).inputValue();
    const faTitle = await page.getByLabel(words.faTitle, { exact: true }).inputValue();
    // the first clone is the copy; once it is saved, the next is the second copy
    const first = language === 'en' && size === 'desktop';
    expect(title).toBe(first ? 'Join channel (copy)' : 'Join channel (copy 2)');
    expect(faTitle).toBe(first ? 'عضویت در کانال (کپی)' : 'عضویت در کانال (کپی ۲)');
    await look(page, name('clone'));
    if (first) {
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/admin\/missions\?/);
      await expect(MissionModel.countDocuments({ title: 'Join channel (copy)', 'fa.title': 'عضویت در کانال (کپی)' })).resolves.toBe(1);
    }
  });

  it("says on the broadcast form that without PUBLIC_URL a button opens the app's home page", async () => {
    await page.goto(`${product.base}/admin/broadcasts/create`);
    const notice = page.getByRole('note').filter({ hasText: words.notice });
    await notice.waitFor();
    await notice.scrollIntoViewIfNeeded();
    await look(page, name('broadcast'));
  });

  it('filters withdrawals by the day they were requested, typed in the console language', async () => {
    await page.goto(`${product.base}/admin/withdraws`);
    await page.getByText('Sara Waiting').first().waitFor();
    const from = page.getByLabel(words.requestedFrom);
    // react-admin remembers which filters were shown on this list: shown already (an earlier language showed it), the
    // menu's item would hide it again
    if (!(await from.isVisible())) {
      await page.getByRole('button', { name: words.addFilter }).click();
      await page.getByRole('menu').getByText(words.requestedFrom).click();
    }
    if (language === 'fa') {
      await expect(from.getAttribute('type')).resolves.toBe('text');
      await from.fill(todayInPersian());
    } else {
      await expect(from.getAttribute('type')).resolves.toBe('date');
      await from.fill(TODAY);
    }
    await page.waitForURL((url) => (url.searchParams.get('filter') ?? '').includes(`"createdAt_gte":"${TODAY}"`));
    await page.getByText('Sara Waiting').first().waitFor();
    await look(page, name('withdraws-filter'));
    // the filter stays for the next visit: cleared so the next language starts from the whole list
    await page.goto(`${product.base}/admin/withdraws?filter=%7B%7D`);
  });

  it("sets the dashboard's range start, typed in the console language", async () => {
    await page.goto(`${product.base}/admin/`);
    const from = page.getByTestId('dashboard-period').getByLabel(words.from, { exact: true });
    await from.waitFor();
    // 1405/09/01 is 22 November 2026: the input reads what the operator types in their calendar
    if (language === 'fa') {
      await expect(from.inputValue()).resolves.toMatch(/^[۰-۹]{4}\/[۰-۹]{2}\/[۰-۹]{2}$/);
      await from.fill('۱۴۰۵/۰۹/۰۱');
    } else await from.fill('2026-11-22');
    await page.waitForURL((url) => url.searchParams.get('from') === '2026-11-22');
    if (language === 'fa') await expect(from.inputValue()).resolves.toBe('۱۴۰۵/۰۹/۰۱');
    await look(page, name('dashboard'));
  });
});
