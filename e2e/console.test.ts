// The console as operators use it all day, in a real Chromium, at 1280×800 and 390×844.
import type { Page } from 'playwright-core';
import { toMicros } from '@gift/shared';
import { AuditEntryModel } from '../server/src/modules/audit/audit.model';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { AppConfigModel } from '../server/src/modules/config/appConfig.model';
import { CoverModel } from '../server/src/modules/content/content.models';
import { balanceOf } from '../server/src/modules/ledger/ledger.service';
import { MissionModel, UserMissionModel } from '../server/src/modules/missions/mission.models';
import { StakingCoinModel } from '../server/src/modules/staking/staking.models';
import { UserModel } from '../server/src/modules/users/user.model';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, screenshotPath, shot } from './support';

// a real browser against a live server: minutes, not the 5 s of unit tests
jest.setTimeout(300_000);

const OPERATOR = 'console-operator';
const MISSIONS_ONLY = 'missions-editor';
const LONG_HASH = 'f3a9c27e5b1d48a6b0e2c7d94f1a8e3b6c5d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6';

const product = useProduct({
  demo: true,
  operators: [
    { username: OPERATOR, permissions: ['*'] },
    { username: MISSIONS_ONLY, permissions: ['missions:write'] },
  ],
  before: addDoneWithdrawal,
});

/** A processed withdrawal of Sara's with a real-length transaction hash, as the done tab shows them. */
async function addDoneWithdrawal() {
  const sara = (await UserModel.findOne({ username: 'sara_ahmadi' }).lean())!;
  const gift = (await GiftCoinModel.findOne({ symbol: 'GIFT' }).lean())!;
  await WithdrawalModel.create({
    status: 'done',
    txHash: LONG_HASH,
    processedAt: new Date(),
    idempotencyKey: 'e2e-done-withdrawal',
    user: sara._id,
    coin: gift._id,
    amount: Number(toMicros('150')),
    address: 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG',
  });
}

/** Signs in through the form, as an operator does; the browser profile is shared, so it starts signed out. */
const signIn = (username: string, viewport = DESKTOP) => product.signInOperator(username, { signOutFirst: true, viewport });

const open = async (page: Page, path: string) => {
  await page.goto(`${product.base}/admin${path}`);
};

/** Opens a list (or the one form of App Config) and waits for its page range, in English. */
async function openList(page: Page, path: string) {
  await open(page, path);
  await page
    .getByText(/^\d+-\d+ of \d+$/)
    .or(page.locator('#main-content form'))
    .first()
    .waitFor();
}

/** How far the page is wider than the window (0 when nothing runs off the side). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Presses Save; each caller then waits for what it expects (the 'Saved' note, or a field error). */
async function save(page: Page) {
  await page.getByRole('button', { name: 'Save' }).click();
}

/** Fills the form of a new Social mission that pays `reward` GIFT and is checked automatically. */
async function fillSocialMission(page: Page, title: string, reward: string) {
  await page.getByLabel('Category').click();
  await page.getByRole('option', { name: 'Social' }).click();
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Reward amount').fill(reward);
  await page.getByLabel('Coin').click();
  await page.getByRole('option', { name: 'GIFT' }).click();
  await page.getByLabel('Verify type').click();
  await page.getByRole('option', { name: 'Auto' }).click();
}

describe('what was broken, tried as it was found', () => {
  const page = product.useOperatorTab(OPERATOR);

  it('saves the seeded "Invite friends" cover, whose image is a path on this site', async () => {
    const cover = (await CoverModel.findOne({ title: /^Invite friends/ }).lean())!;
    await open(page, `/covers/${cover._id}`);
    await expect(page.getByLabel('Image', { exact: true }).inputValue()).resolves.toBe('/demo/cover-invite.svg');
    // the banner Persian players see, a picture of its own
    await expect(page.getByLabel('Image in Persian').inputValue()).resolves.toBe('/demo/cover-invite-fa.svg');
    await expect(page.locator('input[type="url"], input[type="number"], input[min], input[step]').count()).resolves.toBe(0);
    await page.getByLabel('Title', { exact: true }).fill('Invite friends: 60 GIFT each');
    await save(page);
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(
      CoverModel.findById(cover._id)
        .lean()
        .then((c) => c?.title),
    ).resolves.toBe('Invite friends: 60 GIFT each');
  });

  it('marks the staking profit field that is wrong', async () => {
    const offer = (await StakingCoinModel.findOne().lean())!;
    await open(page, `/staking-coins/${offer._id}`);
    await page.getByLabel('Profit % — 1 week').waitFor();
    for (const bad of ['abc', '-5']) {
      await page.getByLabel('Profit % — 1 week').fill(bad);
      await save(page);
      await page.getByText('Enter a percent like 5 or 12.5').waitFor();
    }
    await shot(page, 'console-staking-profit-error');
    await expect(page.getByLabel('Profit % — 1 week').getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('clears optional fields: a coin price, the bot username, a jetton master', async () => {
    const star = (await GiftCoinModel.findOne({ symbol: 'STAR' }).lean())!;
    await open(page, `/gift-coins/${star._id}`);
    await page.getByLabel('USD price').fill('0.01');
    await save(page);
    await page.getByText('Saved', { exact: true }).waitFor();
    await open(page, `/gift-coins/${star._id}`);
    await expect(page.getByLabel('USD price').inputValue()).resolves.toBe('0.01');
    await page.getByLabel('USD price').fill('');
    await page.getByLabel('Jetton master address').fill('');
    await save(page);
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(
      GiftCoinModel.findById(star._id)
        .lean()
        .then((c) => [c?.usdPrice, c?.jettonMaster]),
    ).resolves.toEqual(['', '']);

    await open(page, '/app-config');
    // the bot's username comes from its token (Telegram's getMe), and the page says which token runs the bot
    await expect(page.getByLabel('Bot username').inputValue()).resolves.toBe('GiftRewardsBot');
    await expect(page.getByLabel('Bot username').getAttribute('readonly')).resolves.not.toBeNull();
    await page.getByTestId('bot-token-status').waitFor();
    const message = await page.getByLabel('Referrer message', { exact: true }).inputValue();
    await page.getByLabel('Referrer message', { exact: true }).fill('');
    await save(page);
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(
      AppConfigModel.findOne()
        .lean()
        .then((c) => c?.referrerMessage),
    ).resolves.toBe('');
    await page.getByLabel('Referrer message', { exact: true }).fill(message);
    await save(page);
    await page.getByText('Saved', { exact: true }).last().waitFor();
  });

  it('asks before making a mission ⭐, naming how many players it holds back, and clones a mission', async () => {
    const players = await UserModel.countDocuments();
    await open(page, '/missions/create');
    await fillSocialMission(page, 'Read the rules first', '1');
    await page.getByLabel('Must done ⭐').check();
    await save(page);
    const dialog = page.getByRole('dialog', { name: 'Make this mission ⭐?' });
    await dialog.filter({ hasText: `each of the ${players} players who have not done it must do it first` }).waitFor();
    await page.screenshot({ path: screenshotPath('console-mission-star-confirm') });
    // Cancel saves nothing
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(MissionModel.exists({ title: 'Read the rules first' })).resolves.toBeNull();
    await save(page);
    await page.getByRole('dialog', { name: 'Make this mission ⭐?' }).getByRole('button', { name: 'Make it ⭐' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const star = (await MissionModel.findOne({ title: 'Read the rules first' }).lean())!;
    expect(star.mustDone).toBe(true);
    await page.locator('tbody tr').first().filter({ hasText: 'Read the rules first' }).waitFor();

    // a clone starts as a copy to change, its title marked as one; it is its own mission once saved
    await open(page, `/missions/${star._id}`);
    await page.getByRole('link', { name: 'Clone' }).click();
    // the new mission's form, not the edited one's still on screen while the page changes
    await page.waitForURL(/\/admin\/missions\/create/);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="title"]')?.value !== 'Read the rules first');
    await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('Read the rules first (copy)');
    // the copied values settle once the form has them all: edit after that, or the edit is replaced
    await page.getByLabel('Coin').filter({ hasText: 'GIFT' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Title', { exact: true }).fill('Read the rules again');
    await page.getByLabel('Must done ⭐').uncheck();
    await expect(page.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('Read the rules again');
    await save(page);
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(MissionModel.exists({ title: 'Read the rules again', mustDone: false }).then(Boolean)).resolves.toBe(true);

    // both off at once, as a campaign ends (the saved clone's list is its category's, newest first)
    for (const title of ['Read the rules again', 'Read the rules first'])
      await page.locator('tbody tr').filter({ hasText: title }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('2 missions disabled').waitFor();
    await expect(MissionModel.countDocuments({ title: /^Read the rules/, enabled: false })).resolves.toBe(2);
    // retire the ⭐ mission: it would hold back the other tests' players
    await MissionModel.deleteMany({ title: /^Read the rules/ });
  });

  it('refuses a reward of 0 on the field', async () => {
    await open(page, '/missions/create');
    await page.getByLabel('Reward amount').fill('0');
    await save(page);
    await page.getByText('Must be more than 0').waitFor();
    await page.getByText('This field is required').first().waitFor();
  });

  it('offers no decision on a finished review or a processed withdrawal', async () => {
    const done = (await UserMissionModel.findOne({ status: 'done' }).lean())!;
    await open(page, `/user-missions/${done._id}`);
    await page.getByText('Done', { exact: true }).first().waitFor();
    // exactly the decision's field: the menu's badge of withdrawals waiting for a decision is no decision of this page
    await expect(page.getByLabel('Decision', { exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    const processed = (await WithdrawalModel.findOne({ status: 'done' }).lean())!;
    await open(page, `/withdraws/${processed._id}`);
    await page.getByText(LONG_HASH).waitFor();
    await expect(page.getByLabel('Decision', { exact: true }).count()).resolves.toBe(0);
    await shot(page, 'console-withdraw-done-record');
  });

  it('fits the done withdrawals table and its tabs in 1280 px', async () => {
    await open(page, '/withdraw/done');
    await page.getByRole('tab', { name: /^Done \(\d+\)$/ }).waitFor();
    await page.getByRole('tab', { name: /^Pending \(1\)$/ }).waitFor();
    await page.getByText('150 GIFT').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    const tabs = await page.getByRole('tab', { name: /^Pending/ }).boundingBox();
    expect(tabs!.x + tabs!.width).toBeLessThanOrEqual(DESKTOP.width);
    await shot(page, 'console-withdraws-done-desktop');
  });

  it('names verify types, statuses, permissions and the coin of a reward', async () => {
    // every category (the list keeps the filter a saved mission left it on)
    await open(page, `/missions?filter=${encodeURIComponent('{}')}`);
    await page.getByRole('cell', { name: 'Manual', exact: true }).first().waitFor();
    await expect(page.getByRole('cell', { name: 'manual', exact: true }).count()).resolves.toBe(0);
    await open(page, '/accounts');
    await page.getByText('Missions: read and write').waitFor();
    await expect(page.getByText('missions:write', { exact: true }).count()).resolves.toBe(0);
    await open(page, '/user-missions');
    await page.getByRole('cell', { name: '1000 GIFT' }).waitFor();
  });

  it("opens 'Missions to review' on the pending reviews, and finds reviews and withdrawals by player", async () => {
    await open(page, '/');
    await page.getByTestId('figure-dashboard.pendingReviews').filter({ hasText: /^\d+$/ }).click();
    await page.getByRole('tab', { name: /^Pending review \(2\)$/, selected: true }).waitFor();
    await page.locator('tbody .RaDatagrid-row').nth(1).waitFor();
    await shot(page, 'console-user-missions-to-review');
    await page.locator('tbody .RaDatagrid-row').nth(2).waitFor({ state: 'detached' });
    await page.getByPlaceholder('Player or mission').fill('Daniel');
    await page.getByRole('tab', { name: /^Pending review \(1\)$/ }).waitFor();
    await page.getByRole('cell', { name: /STON\.fi/ }).waitFor();
    await page.getByPlaceholder('Player or mission').fill('');

    await open(page, '/withdraw/done');
    await page.getByPlaceholder('Player, address or hash').fill('sara');
    await page.getByText('150 GIFT').waitFor();
    await page.getByPlaceholder('Player, address or hash').fill('nobody at all');
    await page.getByText('150 GIFT').waitFor({ state: 'detached' });
  });
});

describe('a missions-only account', () => {
  it('creates a mission, choosing its category and coin', async () => {
    const page = await signIn(MISSIONS_ONLY);
    // the menu settles once the account's permissions are known (the language menu, hidden until opened, is another)
    await page.waitForFunction(
      () => document.querySelectorAll('.RaMenu-open [role="menuitem"], .RaMenu-closed [role="menuitem"]').length === 3,
    );
    await expect(page.getByRole('menu').getByRole('menuitem').allTextContents()).resolves.toEqual(['Dashboard', 'Missions', 'Logout']);
    await open(page, '/missions');
    await page.getByText('Get started').first().waitFor();
    await expect(page.locator('[data-testid="ErrorIcon"], .RaReferenceField-error').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Create' }).click();
    await fillSocialMission(page, 'Follow our channel on X', '25');
    await shot(page, 'console-mission-create-missions-only');
    await save(page);
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect(MissionModel.exists({ title: 'Follow our channel on X' }).then(Boolean)).resolves.toBe(true);
    // the list it lands on is the mission's category, newest first: the saved mission is the first row (a list still
    // loading after a second shows empty placeholder rows: its first row is read once it holds a mission)
    await page.waitForURL(/\/admin\/missions\?/);
    await page.locator('tbody tr').first().filter({ hasText: 'Follow our channel on X' }).waitFor();
    // the dashboard shows only what the account may read or decide: the brake changes of missions it may approve, no
    // other figure, and no card left waiting
    await open(page, '/');
    // every card shows "…" until the figures arrive, and the page may not be drawn yet when the load ends: wait for
    // the account's own card to show a number, then only the account's own remain
    await page.getByTestId('figure-dashboard.changesWaiting').filter({ hasText: /^\d+$/ }).waitFor();
    await expect(page.getByText('…').count()).resolves.toBe(0);
    await page.getByText('Brake changes waiting for a second operator').waitFor();
    for (const other of ['Players', 'Gifts waiting for a second operator', 'Missions to review', 'Pending withdraws'])
      await expect(page.getByText(other, { exact: true }).count()).resolves.toBe(0);
    await page.close();
  });
});

describe('review work and the player page', () => {
  const page = product.useOperatorTab(OPERATOR);

  it('approves two reviews in bulk, crediting each player once', async () => {
    const pending = await UserMissionModel.find({ status: 'pending' }).lean();
    expect(pending).toHaveLength(2);
    const before = await Promise.all(pending.map((p) => balanceOf(p.user, p.coin)));
    await open(page, '/user-missions');
    await page.getByRole('tab', { name: /^Pending review \(2\)$/ }).waitFor();
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await shot(page, 'console-user-missions-bulk');
    await page.getByRole('button', { name: 'Approve' }).click();
    // approving in bulk credits rewards: it asks first, naming how many
    const confirmation = page.getByRole('dialog');
    await confirmation.getByText('Approve 2 missions').waitFor();
    await confirmation.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved 2').waitFor();
    await page.getByRole('tab', { name: /^Pending review \(0\)$/ }).waitFor();
    const after = await Promise.all(pending.map((p) => balanceOf(p.user, p.coin)));
    expect(after.map((a, i) => a - before[i]!)).toEqual(pending.map((p) => BigInt(p.reward)));
    expect(await AuditEntryModel.countDocuments({ action: 'review', username: OPERATOR })).toBe(2);
  });

  it('gifts a player 10 GIFT with a reason, shown in their ledger and in the audit list', async () => {
    const maya = (await UserModel.findOne({ name: 'Maya Patel' }).lean())!;
    const gift = (await GiftCoinModel.findOne({ symbol: 'GIFT' }).lean())!;
    const before = await balanceOf(maya._id, gift._id);
    await open(page, `/users/${maya._id}/show`);
    await page.getByRole('tab', { name: 'Summary' }).waitFor();
    await shot(page, 'console-player-desktop');
    await page.getByRole('tab', { name: 'Gift or correction' }).click();
    await page.getByLabel('Coin').click();
    await page.getByRole('option', { name: 'GIFT' }).click();
    await page.getByLabel('Amount').fill('10');
    await save(page);
    await page.getByText('This field is required').waitFor();
    await page.getByLabel('Reason').fill('Winner of the November contest');
    await shot(page, 'console-player-gift-desktop');
    await save(page);
    // no gift without a confirmation that names the amount and the player
    const confirmation = page.getByRole('dialog');
    await confirmation.getByText('Add 10 GIFT to the balance of Maya Patel').waitFor();
    await confirmation.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(/^Saved: the balance is now/).waitFor();
    expect(await balanceOf(maya._id, gift._id)).toBe(before + toMicros('10'));

    await page.getByRole('tab', { name: 'Ledger' }).click();
    const row = page.locator('.RaDatagrid-row', { hasText: 'Winner of the November contest' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/\+10.*GIFT.*gift.*Winner of the November contest.*console-operator/);
    await shot(page, 'console-player-ledger-desktop');

    await page.getByRole('menu').getByRole('menuitem', { name: 'Audit' }).click();
    // the ledger's row carries the same note: read the row only once the Audit list (its Changes column) is on screen
    await page.waitForURL(/\/admin\/audit(\?.*)?$/);
    await page.getByRole('columnheader', { name: 'Changes' }).waitFor();
    const entry = page.locator('.RaDatagrid-row', { hasText: 'Winner of the November contest' });
    await entry.waitFor();
    // the audit reads in words: the operator, the action, the player by name and the change
    await expect(entry.textContent()).resolves.toMatch(/console-operator.*Adjust.*Maya Patel.*Amount: \+10/);
    await shot(page, 'console-audit-desktop');
  });

  it('shows the dashboard figures and its 30-day chart', async () => {
    await open(page, '/');
    await page.getByTestId('dashboard-chart').locator('.recharts-line').first().waitFor();
    await expect(page.getByTestId('dashboard-chart').locator('.recharts-line').count()).resolves.toBe(3);
    await expect(page.getByTestId('figure-dashboard.players').textContent()).resolves.toMatch(/^\d+$/);
    await expect(page.getByTestId('figure-dashboard.pendingWithdraws-detail').textContent()).resolves.toMatch(/GIFT/);
    await shot(page, 'console-dashboard-desktop');
  });
});

const LISTS: Array<[string, string]> = [
  ['users', '/users'],
  ['user-missions', '/user-missions'],
  ['missions', '/missions'],
  ['categories', '/categories'],
  ['covers', '/covers'],
  ['partners', '/partners'],
  ['gift-coins', '/gift-coins'],
  ['staking-coins', '/staking-coins'],
  ['withdraws-pending', '/withdraw'],
  ['withdraws-done', '/withdraw/done'],
  ['accounts', '/accounts'],
  ['audit', '/audit'],
  ['app-config', '/app-config'],
];

describe('in Persian, right to left', () => {
  it('is chosen on the sign-in page, reads right to left, and creates a mission with both languages typed on a Persian keyboard', async () => {
    const page = await product.openSignedOutConsole();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'فارسی' }).click();
    await page.getByRole('button', { name: 'ورود' }).waitFor();
    await expect(page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).resolves.toEqual(['rtl', 'fa']);
    await shot(page, 'console-fa-login');
    await product.submitSignIn(page, OPERATOR);
    await page.waitForURL(`${product.base}/admin/`);

    // the menu is on the right, the page's title bar reads right to left
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'مأموریت‌ها', exact: true }).waitFor();
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThan(DESKTOP.width / 2);
    await page.getByTestId('dashboard-chart').locator('.recharts-line').first().waitFor();
    // the chart's days in the Persian calendar and digits ("۷ آذر"), read right to left: the oldest day on the right
    const days = page.getByTestId('dashboard-chart').locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await expect(days.first().textContent()).resolves.toMatch(/^[۰-۹]+ \S+$/);
    const [oldest, newest] = [(await days.first().boundingBox())!, (await days.last().boundingBox())!];
    expect(oldest.x).toBeGreaterThan(newest.x);
    await shot(page, 'console-fa-dashboard');

    await menu.getByRole('menuitem', { name: 'مأموریت‌ها', exact: true }).click();
    await page.getByText(/^\d+-\d+ \(کل: \d+\)$/).waitFor();
    await page.getByRole('link', { name: 'ایجاد' }).click();
    await page.getByLabel('مقدار پاداش').waitFor();
    // the form's own checks answer in Persian, on their fields
    await page.getByLabel('مقدار پاداش').fill('۰');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.getByText('باید بیشتر از ۰ باشد').waitFor();
    await page.getByText('این فیلد الزامی است').first().waitFor();
    await shot(page, 'console-fa-mission-errors');

    await page.getByLabel('دسته', { exact: true }).click();
    await page.getByRole('option', { name: 'Social' }).click();
    await page.getByLabel('عنوان', { exact: true }).fill('Share the launch post on X');
    await page.getByLabel('عنوان به فارسی').fill('کانال ما را در ایکس دنبال کنید');
    await page.getByLabel('توضیح', { exact: true }).fill('Share our launch post on X and come back');
    await page.getByLabel('توضیح به فارسی').fill('‏@giftrewards را در ایکس دنبال کنید و برگردید');
    // a Persian console shows the number in Persian digits (it keeps 25.5, as the saved reward below shows)
    await page.getByLabel('مقدار پاداش').fill('۲۵٫۵');
    await expect(page.getByLabel('مقدار پاداش').inputValue()).resolves.toBe('۲۵٫۵');
    await page.getByLabel('سکه', { exact: true }).click();
    await page.getByRole('option', { name: 'GIFT' }).click();
    await page.getByLabel('نوع تأیید').click();
    await page.getByRole('option', { name: 'خودکار' }).click();
    await page.getByLabel('دکمهٔ دریافت به فارسی').fill('دریافت جایزه');
    await shot(page, 'console-fa-mission-create');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.getByText('ذخیره شد', { exact: true }).waitFor();

    const saved = (await MissionModel.findOne({ title: 'Share the launch post on X' }).lean())!;
    expect(saved).toMatchObject({
      reward: Number(toMicros('25.5')),
      fa: { title: 'کانال ما را در ایکس دنبال کنید', claimButton: 'دریافت جایزه' },
    });
    expect(saved.fa?.description).toContain('@giftrewards');
    // the list it lands on shows the saved mission first, its Persian flagged as done (a list still loading after a
    // second shows empty placeholder rows: its first row is read once it holds a mission)
    await page.waitForURL(/\/admin\/missions\?/);
    const first = page.locator('tbody tr').first();
    await first.filter({ hasText: 'Share the launch post on X' }).waitFor();
    await first.getByText('فارسی ✓').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'console-fa-missions');
    await page.close();
  });

  it('shows every list, the review screen and a player in Persian within 1280×800 and 390×844', async () => {
    const page = await signIn(OPERATOR);
    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('fa')));
    const sara = (await UserModel.findOne({ username: 'sara_ahmadi' }).lean())!;
    const review = ((await UserMissionModel.findOne({ status: 'pending' }).lean()) ?? (await UserMissionModel.findOne().lean()))!;
    const pages: Array<[string, string]> = [...LISTS, ['player', `/users/${sara._id}/show`], ['review', `/user-missions/${review._id}`]];
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      for (const [name, path] of pages) {
        await open(page, path);
        // a list's page range, a form, the player's tabs; the review screen, or a decided claim's status (earlier tests
        // may have decided every waiting one)
        const ready =
          name === 'review'
            ? page.getByTestId('proof-review').or(page.getByText(/^(انجام‌شده|ردشده|شروع‌شده)$/))
            : page
                .getByText(/^\d+-\d+ \(کل: \d+\)$/)
                .or(page.locator('#main-content form'))
                .or(page.getByRole('tab', { name: 'خلاصه' }));
        await ready.first().waitFor();
        await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe('rtl');
        await shot(page, `console-fa-${name}-${size}`);
        expect({ name, size, overflow: await overflow(page) }).toEqual({ name, size, overflow: 0 });
      }
    }
    await page.close();
  });
});

describe('every list, on a desktop and on a phone', () => {
  it('fits 1280×800 without running off the side', async () => {
    const page = await signIn(OPERATOR);
    for (const [name, path] of LISTS) {
      await openList(page, path);
      await shot(page, `console-${name}-desktop`);
      expect({ name, overflow: await overflow(page) }).toEqual({ name, overflow: 0 });
    }
    await page.close();
  });

  it('shows simple lists at 390×844, reaches done withdrawals through the tabs, and closes the menu after navigating', async () => {
    const page = await signIn(OPERATOR, PHONE);
    await page.getByTestId('dashboard-chart').locator('.recharts-line').first().waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'console-dashboard-phone');

    await open(page, '/withdraw');
    await page.getByRole('tab', { name: /^Done \(\d+\)$/ }).click();
    await page.waitForURL(`${product.base}/admin/withdraw/done`);
    await page.getByText('150 GIFT').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'console-withdraws-done-phone-tabs');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.locator('.MuiDrawer-paper');
    await drawer.getByRole('menuitem', { name: 'Users', exact: true }).click();
    await page.waitForURL(`${product.base}/admin/users`);
    await page.getByText('Sara Ahmadi').waitFor();
    await drawer.waitFor({ state: 'hidden' });

    for (const [name, path] of LISTS) {
      await openList(page, path);
      await expect(page.locator('.RaDatagrid-table').count()).resolves.toBe(0);
      await shot(page, `console-${name}-phone`);
      expect({ name, overflow: await overflow(page) }).toEqual({ name, overflow: 0 });
    }

    const mission = (await MissionModel.findOne({ verifyType: 'manual' }).lean())!;
    const pending = (await WithdrawalModel.findOne({ status: 'pending' }).lean())!;
    for (const [name, path] of [
      ['mission-edit', `/missions/${mission._id}`],
      ['withdraw-decision', `/withdraws/${pending._id}`],
    ]) {
      await open(page, path!);
      await page.getByRole('button', { name: 'Save' }).waitFor();
      await shot(page, `console-${name}-phone`);
      expect({ name, overflow: await overflow(page) }).toEqual({ name, overflow: 0 });
    }

    const sara = (await UserModel.findOne({ username: 'sara_ahmadi' }).lean())!;
    await open(page, `/users/${sara._id}/show`);
    await page.getByText('Sara Ahmadi').first().waitFor();
    await shot(page, 'console-player-phone');
    await page
      .getByText(/\d GIFT/)
      .first()
      .waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('tab', { name: 'Ledger' }).click();
    await page
      .getByText(/^[+-]\d/)
      .first()
      .waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'console-player-ledger-phone');
    await page.close();
  });

  it('raised no script error and showed no label without a translation on any page', () => {
    expect(product.pageErrors).toEqual([]);
    expect(product.missingTranslations).toEqual([]);
  });
});
