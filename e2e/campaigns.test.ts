// Campaigns in a real Chromium, on a phone (390×844): a Manual mission's proof sent by a player launched from Telegram and
// reviewed by an operator in the console, in English and in Persian; and a Persian player's home, in Persian, with its daily mission.
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { CategoryModel } from '../server/src/modules/content/content.models';
import { MissionModel, UserMissionModel } from '../server/src/modules/missions/mission.models';
import { finishStarMissions, useProduct } from './fixture';
import { PHONE, screenshotPath, shot } from './support';

jest.setTimeout(300_000);

const REVIEWER = 'proof-reviewer';

const product = useProduct({ demo: true, telegram: true, operators: [{ username: REVIEWER, permissions: ['*'] }] });

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
});

/** A new player opening the app from Telegram, with the ⭐ missions behind them (they come before every other one), on home. */
async function launchPlayer(language: 'en' | 'fa'): Promise<Page> {
  const { page, telegramId } = await product.openNewPlayer('/', { language, firstName: language === 'fa' ? 'سارا' : 'Alex' });
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  await finishStarMissions(telegramId);
  await page.goto(`${product.base}/`);
  return page;
}

/** A screenshot as a phone makes one. */
const screenshotFile = async (label: string) => ({
  name: `${label}.png`,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 1170, height: 2532, channels: 3, background: { r: 32, g: 90, b: 160 } } })
    .png()
    .toBuffer(),
});

const WORDS = {
  en: {
    category: /^Get started/,
    mission: /Post a story about Gift Rewards/,
    go: 'Open',
    claim: 'Claim',
    link: 'Link to your post',
    image: 'Screenshot',
    sent: 'Sent for review',
    waiting: 'Waiting for review',
    rejected: 'Rejected: Your story is not public. Tap “Open” to try again.',
    done: 'Done! +1,000 GIFT',
  },
  fa: {
    category: /^شروع کار/,
    mission: /انتشار استوری دربارهٔ Gift Rewards/,
    go: 'باز کردن',
    claim: 'دریافت',
    link: 'پیوند پست شما',
    image: 'اسکرین‌شات',
    sent: 'برای بررسی فرستاده شد',
    waiting: 'در انتظار بررسی',
    rejected: 'رد شد: Your story is not public. برای تلاش دوباره «باز کردن» را بزنید.',
    done: 'انجام شد! \u2066+۱٬۰۰۰ GIFT\u2069',
  },
} as const;

/** What a review key types on a Persian keyboard layout: the key's place is the same, its letter another. */
const PERSIAN_LAYOUT: Record<string, string> = { a: 'ش', j: 'ت' };

/** Presses a review key as a reviewer on that layout does (Playwright's own press always types the Latin letter). */
async function pressReviewKey(page: Page, letter: 'a' | 'j', persianLayout: boolean): Promise<void> {
  if (!persianLayout) return page.keyboard.press(letter);
  await page.evaluate(
    ([key, code]) => window.dispatchEvent(new KeyboardEvent('keydown', { key, code, bubbles: true })),
    [PERSIAN_LAYOUT[letter]!, `Key${letter.toUpperCase()}`],
  );
}

describe.each(['en', 'fa'] as const)('a Manual mission with proof, the player in %s', (language) => {
  const words = WORDS[language];
  let player: Page;
  let reviewer: Page;
  afterAll(async () => {
    await player?.close();
    await reviewer?.close();
  });

  it('is claimed with a link and a screenshot, rejected with a reason, sent again and approved', async () => {
    player = await launchPlayer(language);
    await player.getByRole('link', { name: words.category }).click();
    await player.getByRole('link', { name: words.mission }).click();
    await player.getByRole('button', { name: words.go }).click();
    const claim = player.getByRole('button', { name: words.claim });
    await expect(claim.isDisabled()).resolves.toBe(true);
    await player.getByLabel(words.link).fill('https://t.me/s/giftrewards/story-1');
    await player.getByLabel(words.image).setInputFiles(await screenshotFile('story-1'));
    // the preview shows the chosen picture itself
    const preview = player.getByRole('img', { name: words.image });
    await preview.waitFor();
    await player.waitForFunction((img) => (img as HTMLImageElement).naturalWidth === 1170, await preview.elementHandle());
    await shot(player, `campaign-proof-filled-${language}`);
    await claim.click();
    await player.getByText(words.waiting).waitFor();
    await shot(player, `campaign-proof-sent-${language}`);

    const progress = (await UserMissionModel.findOne({ status: 'pending', 'proof.link': 'https://t.me/s/giftrewards/story-1' }).lean())!;
    reviewer = await product.signInOperator(REVIEWER, { viewport: PHONE });
    await reviewer.goto(`${product.base}/admin/user-missions/${progress._id}`);
    const review = reviewer.getByTestId('proof-review');
    await review.getByText('Post a story about Gift Rewards').waitFor();
    await review.getByTestId('proof-link').filter({ hasText: 'https://t.me/s/giftrewards/story-1' }).waitFor();
    // the screenshot, fetched with the operator's token and shown whole
    const picture = review.getByRole('img', { name: 'Screenshot' });
    await picture.waitFor();
    await reviewer.waitForFunction((img) => (img as HTMLImageElement).complete, await picture.elementHandle());
    await expect(picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBe(739);
    await shot(reviewer, `campaign-review-proof-${language}`);
    // keys: R goes to the reason, Enter rejects; the list opens when no other claim waits
    await reviewer.keyboard.press('r');
    await reviewer.keyboard.type('Your story is not public.');
    await reviewer.keyboard.press('Enter');
    await reviewer.getByText('Rejected: the player sees why').waitFor();
    // the next claim waiting opens by itself, and J goes on to the one after it
    const waiting = (await UserMissionModel.find({ status: 'pending' }, { _id: 1 }).lean()).map((p) => String(p._id));
    const reviewing = () => new URL(reviewer.url()).pathname.split('/').pop()!;
    await reviewer.waitForURL((url) => waiting.includes(url.pathname.split('/').pop()!));
    const first = reviewing();
    await reviewer.getByTestId('proof-review').waitFor();
    // with the Persian player, the reviewer's keyboard is on the Persian layout too: the keys still work
    await pressReviewKey(reviewer, 'j', language === 'fa');
    await reviewer.waitForURL((url) => url.pathname.split('/').pop() !== first);
    expect(waiting).toContain(reviewing());
    await expect(UserMissionModel.findById(progress._id).lean()).resolves.toMatchObject({
      status: 'rejected',
      rejectReason: 'Your story is not public.',
    });

    await player.reload();
    await player.getByText(words.rejected).waitFor();
    await shot(player, `campaign-proof-rejected-${language}`);
    await player.getByRole('button', { name: words.go }).click();
    await player.getByLabel(words.link).fill('https://t.me/s/giftrewards/story-2');
    await player.getByLabel(words.image).setInputFiles(await screenshotFile('story-2'));
    await player.getByRole('img', { name: words.image }).waitFor();
    await player.getByRole('button', { name: words.claim }).click();
    await player.getByText(words.waiting).waitFor();

    await reviewer.goto(`${product.base}/admin/user-missions/${progress._id}`);
    await reviewer.getByTestId('proof-link').filter({ hasText: 'story-2' }).waitFor();
    await shot(reviewer, `campaign-review-resubmitted-${language}`);
    await pressReviewKey(reviewer, 'a', language === 'fa');
    await reviewer.getByText('Approved: the reward is credited').waitFor();
    await expect(UserMissionModel.findById(progress._id).lean()).resolves.toMatchObject({ status: 'done' });

    await player.reload();
    await player.getByText(words.done).waitFor();
    await shot(player, `campaign-proof-approved-${language}`);
  });
});

describe('a Persian player', () => {
  it("reads the operators' mission, category and cover texts in Persian, and checks in for today's daily mission", async () => {
    const page = await launchPlayer('fa');
    await page.getByRole('img', { name: 'به Gift Rewards خوش آمدید' }).waitFor();
    await page.getByRole('link', { name: /^شروع کار/ }).waitFor();
    const today = page.getByRole('group', { name: 'امروز' });
    await today.getByText('با انجام یک ماموریت روزانه، روزهای پیاپی را شروع کنید').waitFor();
    await page.getByRole('link', { name: /حضور روزانه/ }).click();
    await page.getByText('هر روز برگردید: هر حضور جایزه دارد و روزهای پیاپی پاداش بیشتری.').waitFor();
    await page.getByRole('button', { name: 'ثبت حضور' }).click();
    await page.getByText(/امروز انجام شد/).waitFor();
    await shot(page, 'campaign-daily-done-fa');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'ماموریت‌ها' }).click();
    await today.getByText('🔥 ۱ روز پیاپی').waitFor();
    await today.getByText('در ۳ روز: \u2066+۱۰۰ GIFT\u2069').waitFor();
    await page
      .getByRole('link', { name: /حضور روزانه/ })
      .filter({ hasText: 'انجام شد' })
      .waitFor();
    await shot(page, 'campaign-home-daily-fa');
    // the limited-time event counts down to its end, in Persian digits
    await page.getByRole('link', { name: /^رویدادها/ }).click();
    await page
      .getByRole('link', { name: /دریافت ستاره‌های هفتهٔ آغاز/ })
      .getByRole('timer')
      .filter({ hasText: /^پایان تا ۴ روز/ })
      .waitFor();
    await shot(page, 'campaign-events-fa');
    await page.close();
  });
});

describe('an operator', () => {
  it("drags a category's missions into a new order, or moves them with the arrows, and players see that order", async () => {
    const social = (await CategoryModel.findOne({ title: 'Social' }).lean())!;
    const titles = async () => (await MissionModel.find({ category: social._id }).sort({ order: 1, _id: 1 }).lean()).map((m) => m.title);
    const before = await titles();
    const page = await product.signInOperator(REVIEWER);
    await page.goto(`${product.base}/admin/missions?filter=${encodeURIComponent(JSON.stringify({ category: String(social._id) }))}`);
    await page.getByRole('button', { name: 'Reorder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Drag the missions into the order players see' });
    const items = dialog.getByTestId('reorder-item');
    await items.nth(before.length - 1).waitFor();
    // the last one dragged to the top, then the (new) second moved down with its arrow
    await items.nth(before.length - 1).dragTo(items.nth(0));
    await items
      .nth(0)
      .filter({ hasText: before[before.length - 1]! })
      .waitFor();
    await dialog.getByRole('button', { name: `Move ${before[0]!} down` }).click();
    await page.screenshot({ path: screenshotPath('console-missions-reorder') });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/missions moved$/).waitFor();
    const expected = [before[before.length - 1]!, before[1]!, before[0]!, ...before.slice(2, -1)];
    await expect(titles()).resolves.toEqual(expected);
    await page.close();
  });
});
