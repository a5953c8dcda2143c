// Weekly leagues (issue 35 item 1) in a real Chromium: a player inside a recording Telegram webview opens the Leagues page from
// home's card and sees their rank, the players around them and their friends, in English and Persian, in Telegram's dark and
// light schemes at 390 px and once at 360 and 320 px; an operator sets the week's prizes in the console (titled, no Delete),
// and a table above the coin's gift threshold waits for a second operator, whose Persian console writes it in Persian digits.
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { LeagueWeekModel } from '../server/src/modules/leagues/leagues.models';
import { postEntry } from '../server/src/modules/ledger/ledger.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { useProduct } from './fixture';
import { TELEGRAM_PALETTES, fits, lookEveryWay, shot } from './support';

jest.setTimeout(240_000);

const product = useProduct({
  demo: true,
  telegram: true,
  operators: [
    { username: 'prize-setter', permissions: ['*'] },
    { username: 'prize-checker', permissions: ['*'] },
  ],
});

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

const LABELS = {
  en: { title: 'Leagues', rank: /Rank \d+ this week/, around: 'Players around you', friends: 'Friends this week', you: 'You' },
  fa: { title: 'لیگ‌ها', rank: /رتبهٔ [۰-۹]+ در این هفته/, around: 'بازیکنان نزدیک شما', friends: 'دوستان در این هفته', you: 'شما' },
} as const;

it.each(['en', 'fa'] as const)("shows the player's rank, the players around and friends, from home's card, in %s", async (language) => {
  const labels = LABELS[language];
  const { page, telegramId } = await product.openNewPlayer('/', {
    language,
    firstName: 'Leaguer',
    launch: { recordTelegram: true, themeParams: TELEGRAM_PALETTES.dark },
  });
  // home's card, before the player earned anything this week
  await page.locator('a.league-card').waitFor();
  // the player earned 47.5 GIFT this week and was invited by a demo player who earned too
  const gift = (await GiftCoinModel.findOne({ symbol: 'GIFT' }).lean())!;
  const inviter = (await UserModel.findOne({ username: /^sara_/ }).lean())!;
  const me = (await UserModel.findOneAndUpdate({ telegramId }, { $set: { referrer: inviter._id } }, { returnDocument: 'after' }).lean())!;
  await postEntry({
    userId: me._id,
    coinId: gift._id,
    amount: toMicros('47.5'),
    reason: 'mission',
    idempotencyKey: `e2e-league:${telegramId}`,
  });
  await page.reload();
  const card = page.locator('a.league-card');
  await card.getByText(labels.rank).waitFor();
  await card.click();
  await page.waitForURL(/\/leagues$/);
  await page.getByRole('heading', { name: labels.around }).waitFor();
  await page.getByRole('heading', { name: labels.friends }).waitFor();
  // the player's own row is marked, among the players around, with their rank and what they earned
  const mine = page.locator('li[aria-current="true"]').first();
  expect(await mine.textContent()).toContain(labels.you);
  expect(await mine.textContent()).toContain(language === 'en' ? '47.5' : '۴۷٫۵');
  const friends = page.locator('ol').last();
  expect(await friends.textContent()).toContain(inviter.name);
  // dark and light at 390 px, and once at 320 (Persian, dark) and 360 (English, light): no Latin digit or English in Persian
  await lookEveryWay(page, 'player-leagues', language, {
    narrow: language === 'fa' ? [['dark', 320]] : [['light', 360]],
    names: ['GIFT', ...(await page.locator('section.leagues li:not([aria-current]) .title').allTextContents())],
  });
  await page.close();
});

/** The live table's first prize once it is `expected` (read again for up to 10 s while the save lands), else what it is. */
async function firstPrize(week: () => Promise<{ prizes: Array<{ amount: number }> }>, expected: string): Promise<number> {
  let amount = 0;
  for (let i = 0; i < 100; i++) {
    amount = (await week()).prizes[0]!.amount;
    if (amount === Number(toMicros(expected))) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return amount;
}

describe("the week's prizes in the console", () => {
  it('are set by an operator; a table above the gift threshold waits for a second operator, who approves it in Persian', async () => {
    const setter = await product.signInOperator('prize-setter', { signOutFirst: true });
    await setter.goto(`${product.base}/admin/league-weeks/current`);
    // the demo's table: 30 to Bronze's first; within the threshold a change applies at once
    const first = setter.locator('input[name="prizes.0.amount"]');
    await first.waitFor();
    // titled as the week's table, saved but never deleted (the server keeps every week)
    await expect(setter.locator('#react-admin-title').textContent()).resolves.toBe('League prizes');
    await expect(setter.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    await first.fill('40');
    await setter.getByRole('button', { name: 'Save' }).click();
    const week = async () => (await LeagueWeekModel.findOne({ state: 'open' }).sort({ week: -1 }).lean())!;
    expect(await firstPrize(week, '40')).toBe(Number(toMicros('40')));
    await shot(setter, 'console-league-prizes-1280-en');

    // 6,000 GIFT to the first is above GIFT's 5,000 threshold: it waits, the live table stays
    await first.fill('6000');
    await setter.getByRole('button', { name: 'Save' }).click();
    const banner = setter.getByTestId('change-waiting-banner');
    await banner.waitFor();
    expect((await week()).prizes[0]!.amount).toBe(Number(toMicros('40')));
    await shot(setter, 'console-league-prizes-waiting-1280-en');

    const checker = await product.signInOperator('prize-checker', {
      ownBrowser: true,
      persian: true,
      viewport: { width: 390, height: 844 },
    });
    await checker.goto(`${product.base}/admin/league-weeks/current`);
    const waiting = checker.getByTestId('change-waiting-banner');
    await waiting.waitFor();
    await expect(checker.locator('#react-admin-title').textContent()).resolves.toBe('جایزه‌های لیگ');
    await expect(checker.getByRole('button', { name: 'حذف' }).count()).resolves.toBe(0);
    // the change and the table in Persian digits: 6,000 to Bronze's first
    await expect(waiting.textContent()).resolves.toContain('برنز ۱–۱: ۶۰۰۰');
    await expect(waiting.textContent()).resolves.not.toMatch(/[0-9]/);
    await expect(checker.locator('input[name="prizes.0.amount"]').inputValue()).resolves.toBe('۴۰');
    await fits(checker);
    await shot(checker, 'console-league-prizes-waiting-390-fa');
    expect(await firstPrize(week, '40')).toBe(Number(toMicros('40')));
    // the second operator approves it, after confirming: the table is live
    await waiting.getByRole('button', { name: 'تأیید تغییر' }).click();
    await checker.getByRole('dialog').getByRole('button', { name: 'تأیید تغییر' }).click();
    await waiting.waitFor({ state: 'detached' });
    expect(await firstPrize(week, '6000')).toBe(Number(toMicros('6000')));
    await shot(checker, 'console-league-prizes-approved-390-fa');
    await checker.close();
  });
});
