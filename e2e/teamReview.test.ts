// Team review in a real Chromium (issue 34, item 8 and defect 4): two operators at two desks work the Manual claims queue. The
// first opens the oldest claim (a tall screenshot) and holds it: the second sees "Being reviewed by" in the queue and cannot
// decide it. The first reads the screenshot full size and zoomed (the review keys asleep meanwhile), keeps Approve and Reject in
// view at 1280×800, and rejects with a reason kept in App Config: the player reads it in their own language. In English and in
// Persian, at 1280×800 and at 390×844.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { objectId } from '../server/src/db/ids';
import { AppConfigModel } from '../server/src/modules/config/appConfig.model';
import { UserMissionModel } from '../server/src/modules/missions/mission.models';
import { storeProofImage } from '../server/src/modules/proofs/proofs.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { createCoin, createManualMission } from '../server/test/factories';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, screenshotPath } from './support';

jest.setTimeout(300_000);

/** Each language at each size: en-desktop, en-phone, fa-desktop, fa-phone. */
const CASES = (['en', 'fa'] as const).flatMap((language) =>
  [DESKTOP, PHONE].map((viewport) => ({
    name: `${language}-${viewport === PHONE ? 'phone' : 'desktop'}`,
    viewport,
    persian: language === 'fa',
  })),
);

/** The reason App Config holds from the start, and the one the first operator adds through the App Config page. */
const KEPT = { en: 'The screenshot does not show the channel', fa: 'تصویر کانال را نشان نمی‌دهد' };
const ADDED = { en: 'The link is to another account', fa: 'پیوند به حساب دیگری است' };

const product = useProduct({
  operators: [
    { username: 'ava', permissions: ['*'] },
    { username: 'ben', permissions: ['*'] },
  ],
  before: seedClaims,
});

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** The claim each case reviews, oldest first (the queue's order). */
const claims: string[] = [];

/** A tall phone screenshot (900×2000), as players send them: at full size it would push the decision far below the fold. */
async function tallScreenshot(label: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="2000">
    <rect width="900" height="2000" fill="#e8f0fe"/>
    <rect x="40" y="60" width="820" height="160" rx="24" fill="#1e88e5"/>
    <text x="80" y="165" font-size="64" font-family="sans-serif" fill="#fff">@giftchannel</text>
    <text x="80" y="420" font-size="48" font-family="sans-serif" fill="#222">${label}</text>
    <text x="80" y="1900" font-size="40" font-family="sans-serif" fill="#222">Joined ✓</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** One Manual mission, a claim with a tall screenshot per case (the oldest first), and App Config's first canned reason. */
async function seedClaims() {
  const coin = await createCoin({ symbol: 'GIFT' });
  const { mission } = await createManualMission(coin, 5_000_000, 'Join our channel');
  const start = Date.now() - 6 * 3_600_000;
  for (const [n, { name }] of CASES.entries()) {
    const player = await UserModel.create({
      telegramId: 8_300_000 + n,
      name: `Claimer ${n + 1}`,
      referralCode: `e2ereview${n}`,
      language: name.startsWith('fa') ? 'fa' : 'en',
    });
    const imageId = await storeProofImage(player._id, await tallScreenshot(`Claimer ${n + 1}`), new Date());
    const claimedAt = new Date(start + n * 60_000);
    const claim = await UserMissionModel.create({
      user: player._id,
      mission: mission._id,
      category: mission.category,
      coin: coin._id,
      reward: mission.reward,
      status: 'pending',
      startedAt: claimedAt,
      claimedAt,
      proof: { link: '', text: 'I joined, see the screenshot', imageId },
    });
    claims.push(String(claim._id));
  }
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { rejectReasons: [{ _id: objectId(randomBytes(12).toString('hex')), ...KEPT }] } },
    { upsert: true },
  );
}

const words = (persian: boolean) =>
  persian
    ? {
        heldBy: 'در حال بررسی توسط ava',
        picture: 'تصویر صفحه',
        zoomIn: 'بزرگ‌نمایی',
        approve: /^تأیید \(A\)/,
        reject: 'رد (R، سپس Enter)',
        rejected: 'رد شد: بازیکن دلیل را می‌بیند',
        added: ADDED.fa,
      }
    : {
        heldBy: 'Being reviewed by ava',
        picture: 'Screenshot',
        zoomIn: 'Zoom in',
        approve: /^Approve \(A\)/,
        reject: 'Reject (R, then Enter)',
        rejected: 'Rejected: the player sees why',
        added: ADDED.en,
      };

/** Nothing wider than a phone: no sideways scrolling. */
async function expectNoOverflow(page: Page, width: number) {
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
}

/** The whole of an element inside the window, as the operator sees it without scrolling. */
async function expectInView(page: Page, selector: ReturnType<Page['getByRole']>) {
  const box = (await selector.boundingBox())!;
  const { height, width } = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(height);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

/** The second operator's desk: their own browser, signed in once, switched to each case's size and language. */
let ben: Page;
beforeAll(async () => {
  ben = await product.signInOperator('ben', { ownBrowser: true });
});

it('the first operator adds a canned reason in both languages on the App Config page', async () => {
  const page = await product.signInOperator('ava', { signOutFirst: true });
  await page.goto(`${product.base}/admin/app-config`);
  const reasons = page.getByTestId('reject-reasons');
  await reasons.getByRole('textbox', { name: 'English' }).first().waitFor();
  await expect(reasons.getByRole('textbox', { name: 'English' }).first().inputValue()).resolves.toBe(KEPT.en);
  await reasons.getByRole('button', { name: 'Add' }).click();
  await reasons.getByRole('textbox', { name: 'English' }).nth(1).fill(ADDED.en);
  await reasons.getByRole('textbox', { name: 'Persian' }).nth(1).fill(ADDED.fa);
  await reasons.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('console-review-reasons-app-config') });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved', { exact: true }).waitFor();
  const saved = await AppConfigModel.findOne({ key: 'app' }).lean();
  expect(saved?.rejectReasons.map(({ en, fa }) => ({ en, fa }))).toEqual([KEPT, ADDED]);
  await page.close();
});

describe.each(CASES)('$name', ({ name, viewport, persian }) => {
  const say = words(persian);

  it('one operator holds the oldest claim: the other sees who, and cannot decide it', async () => {
    const index = CASES.findIndex((c) => c.name === name);
    const claim = claims[index]!;
    const claimer = `Claimer ${index + 1}`;
    /** The claim's row in a queue: a table's row at 1280, a line of the list at 390. */
    const rowOf = (page: Page) =>
      (viewport === PHONE ? page.locator('#main-content li') : page.locator('tbody tr')).filter({ hasText: claimer });
    const ava = await product.signInOperator('ava', { signOutFirst: true, persian, viewport });
    // the queue, oldest first: the earlier cases decided theirs, so this case's claim leads it
    await ava.goto(`${product.base}/admin/user-missions`);
    const first = viewport === PHONE ? ava.locator('#main-content li').first() : ava.locator('tbody tr').first();
    await first.getByText(claimer).waitFor();
    await rowOf(ava).click();
    await ava.waitForURL(`${product.base}/admin/user-missions/${claim}`);
    await ava.getByTestId('proof-review').waitFor();
    await ava.getByRole('button', { name: say.picture }).waitFor();

    // defect 4: with a tall screenshot, Approve and Reject are in view without scrolling
    await expectInView(ava, ava.getByRole('button', { name: say.approve }));
    await expectInView(ava, ava.getByRole('button', { name: say.reject }));
    if (viewport === PHONE) await expectNoOverflow(ava, PHONE.width);
    await ava.screenshot({ path: screenshotPath(`console-review-claim-${name}`) });

    // the second desk, in the same language and size: the queue names who has it open
    await ben.setViewportSize(viewport);
    await ben.evaluate((locale) => localStorage.setItem('RaStore.locale', JSON.stringify(locale)), persian ? 'fa' : 'en');
    await ben.goto(`${product.base}/admin/user-missions`);
    const held = rowOf(ben);
    await held.getByText(say.heldBy).waitFor();
    if (viewport !== PHONE) await expect(held.getByRole('checkbox').isDisabled()).resolves.toBe(true);
    if (viewport === PHONE) await expectNoOverflow(ben, PHONE.width);
    await ben.screenshot({ path: screenshotPath(`console-review-queue-held-${name}`) });
    await held.click();
    await ben.getByTestId('claim-locked').filter({ hasText: say.heldBy }).waitFor();
    await expect(ben.getByRole('button', { name: say.approve }).isDisabled()).resolves.toBe(true);
    await expect(ben.getByRole('button', { name: say.reject }).isDisabled()).resolves.toBe(true);
    await ben.screenshot({ path: screenshotPath(`console-review-claim-held-${name}`) });
    // the server refuses it too, naming who holds it
    const refused = await ben.evaluate(
      async ([id]) => {
        const token = localStorage.getItem('adminToken') ?? '';
        const answer = await fetch(`/api/admin/user-missions/${id}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ status: 'done' }),
        });
        return [answer.status, ((await answer.json()) as { code: string }).code];
      },
      [claim],
    );
    expect(refused).toEqual([409, 'CLAIM_LOCKED']);

    // the screenshot full size: zoomed with the buttons and the wheel, dragged around; the review keys asleep meanwhile
    await ava.getByRole('button', { name: say.picture }).click();
    const dialog = ava.getByRole('dialog');
    const level = dialog.getByTestId('proof-zoom-level');
    await level.waitFor();
    await dialog.getByRole('button', { name: say.zoomIn }).click();
    await dialog.getByRole('button', { name: say.zoomIn }).click();
    await expect(level.innerText()).resolves.toBe(persian ? '۱۵۶٪' : '156%');
    const image = dialog.getByTestId('proof-zoom-image');
    const box = (await image.boundingBox())!;
    await ava.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await ava.mouse.wheel(0, -200);
    await level.filter({ hasText: persian ? '۱۹۵٪' : '195%' }).waitFor();
    await ava.mouse.down();
    await ava.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 80, { steps: 4 });
    await ava.mouse.up();
    await expect(image.evaluate((element) => (element as HTMLElement).style.transform)).resolves.toMatch(/^translate\(60px, 80px\)/);
    await ava.keyboard.press('a');
    await ava.keyboard.press('j');
    await ava.screenshot({ path: screenshotPath(`console-review-zoom-${name}`) });
    await ava.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(ava.url()).toBe(`${product.base}/admin/user-missions/${claim}`);
    expect((await UserMissionModel.findById(claim).lean())?.status).toBe('pending');

    // rejected with the reason added on App Config, picked in the console's language
    await ava.getByTestId('canned-reason').selectOption({ label: say.added });
    await ava.getByRole('button', { name: say.reject }).click();
    await ava.getByText(say.rejected).waitFor();
    await ava.waitForURL((url) => !url.pathname.endsWith(claim));
    expect(await UserMissionModel.findById(claim).lean()).toMatchObject({
      status: 'rejected',
      rejectReason: ADDED.en,
      rejectReasonFa: ADDED.fa,
      lockedBy: null,
    });
    await ava.close();
  });
});
