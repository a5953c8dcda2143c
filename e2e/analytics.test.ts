// Analytics with dates in a real Chromium: an operator opens Analytics from the menu, reads a mission's funnel and cost, the
// retention of each day's new players and the referrers' quality over a range, reorders the referrers, in English and in
// Persian, at 1280×800 and 390×844.
import type { Page } from 'playwright-core';
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { CategoryModel } from '../server/src/modules/content/content.models';
import { LedgerEntryModel } from '../server/src/modules/ledger/ledger.models';
import { postEntry } from '../server/src/modules/ledger/ledger.service';
import { MissionModel, UserMissionModel } from '../server/src/modules/missions/mission.models';
import { recordMissionOpen } from '../server/src/modules/missions/missionFunnel.service';
import { recordActiveDay } from '../server/src/modules/users/playerDays.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { rollUpAnalytics } from '../server/src/modules/dashboard/analytics.service';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, shot } from './support';

jest.setTimeout(300_000);

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - n, 12));
const product = useProduct({ operators: [{ username: 'analyst', permissions: ['*'] }], before: seedHistory });

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/**
 * Ten days of history: six players joined ten days ago, opened a mission, five tapped Go, four claimed, three were approved
 * (2.5 GIFT each); four came back the next day, two a week later; two referrers' friends joined and qualified. Rolled up as the
 * sweep does an hour after each day ends.
 */
async function seedHistory() {
  const coin = await GiftCoinModel.create({ symbol: 'GIFT', name: 'Gift Coin', decimals: 9 });
  const category = await CategoryModel.create({ title: 'Social' });
  const mission = await MissionModel.create({
    category: category._id,
    coin: coin._id,
    title: 'Follow our channel',
    fa: { title: 'کانال ما را دنبال کنید' },
    reward: Number(toMicros('2.5')),
    verifyType: 'manual',
  });
  const players = await UserModel.create(
    Array.from({ length: 6 }, (_, i) => ({
      telegramId: 7_300_000 + i,
      name: `Player ${i}`,
      referralCode: `e2eana${i}`,
      createdAt: daysAgo(10),
    })),
  );
  for (const [i, player] of players.entries()) {
    await recordMissionOpen(player._id, String(mission._id), daysAgo(6));
    if (i < 4) await recordActiveDay({ _id: player._id, createdAt: daysAgo(10), lastSeenAt: daysAgo(10) }, daysAgo(9));
    if (i < 2) await recordActiveDay({ _id: player._id, createdAt: daysAgo(10), lastSeenAt: daysAgo(9) }, daysAgo(3));
  }
  await UserMissionModel.create(
    players.slice(0, 5).map((player, i) => ({
      user: player._id,
      mission: mission._id,
      category: category._id,
      coin: coin._id,
      reward: Number(toMicros('2.5')),
      startedAt: daysAgo(5),
      ...(i < 4 ? { status: i < 3 ? ('done' as const) : ('pending' as const), claimedAt: daysAgo(4) } : {}),
      ...(i < 3 ? { doneAt: daysAgo(4) } : {}),
    })),
  );
  // Ada: four friends, three qualified; Bo: two friends, both qualified
  for (const [referrer, friends, qualified] of [
    ['Ada Lovelace', 4, 3],
    ['Bo Referrer', 2, 2],
  ] as const) {
    const [boss] = await UserModel.create([{ telegramId: 7_310_000 + friends, name: referrer, referralCode: `e2eref${friends}` }]);
    for (let i = 0; i < friends; i++) {
      const [friend] = await UserModel.create([
        {
          telegramId: 7_320_000 + friends * 10 + i,
          name: `${referrer} friend ${i}`,
          referralCode: `e2efr${friends}${i}`,
          referrer: boss!._id,
          referralState: i < qualified ? 'rewarded' : 'joined',
          ...(i < qualified ? { referralQualifiedAt: daysAgo(2) } : {}),
          createdAt: daysAgo(3),
        },
      ]);
      if (i < qualified)
        await postEntry({
          userId: boss!._id,
          coinId: coin._id,
          amount: toMicros('5'),
          reason: 'referral',
          idempotencyKey: `referral:${friend!._id}`,
        });
    }
  }
  await LedgerEntryModel.collection.updateMany({ reason: 'referral' }, { $set: { createdAt: daysAgo(2) } });
  await rollUpAnalytics(new Date(Date.now() + DAY / 24));
}

/** The page holds no Latin digit in its tables (Persian digits throughout). */
const latinDigitsIn = (page: Page) =>
  page.locator('table').evaluateAll(
    (tables) =>
      tables
        .map((t) => t.textContent ?? '')
        .join('')
        .match(/[0-9]/g) ?? [],
  );
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('analytics', () => {
  it('shows a mission funnel, cohorts and referrers in English at 1280×800, and reorders the referrers', async () => {
    const page = await product.signInOperator('analyst', { signOutFirst: true, viewport: DESKTOP });
    await page.getByRole('menuitem', { name: 'Analytics' }).click();
    await page.waitForURL(/\/admin\/analytics/);
    const funnel = page.getByTestId('analytics-missions').locator('tbody tr').filter({ hasText: 'Follow our channel' });
    await funnel.waitFor();
    await expect(funnel.locator('td').allInnerTexts()).resolves.toEqual(['Follow our channel', '6', '5', '4', '3', '7.5 GIFT']);
    const cohort = page
      .getByTestId('analytics-cohorts')
      .locator('tbody tr')
      .filter({ hasText: daysAgo(10).toLocaleDateString() });
    await expect(cohort.locator('td').allInnerTexts()).resolves.toEqual([daysAgo(10).toLocaleDateString(), '6', '67% (4)', '33% (2)', '']);
    const referrers = page.getByTestId('analytics-referrers').locator('tbody tr');
    await expect(referrers.first().locator('td').allInnerTexts()).resolves.toEqual(['Ada Lovelace', '4', '3', '75%', '15 GIFT']);
    await shot(page, 'console-analytics');

    // the top referrers by qualified ÷ joined: Bo's two of two first
    await page.getByRole('button', { name: 'Qualified ÷ joined' }).click();
    await page.waitForURL(/sort=rate/);
    await referrers.first().getByText('Bo Referrer').waitFor();
    await expect(referrers.first().locator('td').allInnerTexts()).resolves.toEqual(['Bo Referrer', '2', '2', '100%', '10 GIFT']);
    // a week: the funnel's days (five and four days ago) are in it, the cohort of ten days ago is not
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    const cohorts = page.getByTestId('analytics-cohorts').locator('tbody tr');
    await cohorts.nth(7).waitFor({ state: 'detached' });
    await expect(cohorts.count()).resolves.toBe(7);
    await expect(funnel.locator('td').allInnerTexts()).resolves.toEqual(['Follow our channel', '6', '5', '4', '3', '7.5 GIFT']);
    await page.close();
  });

  it('fits a phone in English: the tables scroll inside their cards', async () => {
    const page = await product.signInOperator('analyst', { signOutFirst: true, viewport: PHONE });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('.MuiDrawer-paper').getByRole('menuitem', { name: 'Analytics' }).click();
    await page.getByTestId('analytics-referrers').getByText('Ada Lovelace').waitFor();
    await shot(page, 'console-analytics-phone');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`reads in Persian at ${viewport.width}×${viewport.height}: Persian digits, Solar Hijri days`, async () => {
      const page = await product.signInOperator('analyst', { signOutFirst: true, persian: true, viewport });
      if (size === 'desktop') await page.getByRole('menuitem', { name: 'تحلیل‌ها' }).click();
      else await page.goto(`${product.base}/admin/analytics`);
      await page.getByRole('heading', { name: 'قیف مأموریت‌ها' }).waitFor();
      await page.getByRole('button', { name: 'واجد شرایط ÷ پیوسته' }).click();
      await page.waitForURL(/sort=rate/);
      await page.getByTestId('analytics-missions').getByText('کانال ما را دنبال کنید').waitFor();
      const hijri = daysAgo(10).toLocaleDateString('fa-IR', { timeZone: 'UTC' });
      await page.getByTestId('analytics-cohorts').getByText(hijri).waitFor();
      await page.getByTestId('analytics-referrers').getByRole('cell', { name: '۱۰۰٪' }).waitFor();
      // the sort button scrolled the page (the app bar hides on scroll): the picture shows the page from its top
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `console-analytics-fa-${size}`);
      expect(await latinDigitsIn(page)).toEqual([]);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.close();
    });
  }
});
