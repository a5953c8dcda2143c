// Money brakes in a real Chromium: a mission's reward raised above its coin's threshold waits on the mission's page for a
// second operator, who approves it after confirming; the operator who asked cannot.
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { MissionModel } from '../server/src/modules/missions/mission.models';
import { refreshLiveFigures } from '../server/src/modules/dashboard/dashboard.service';
import { useProduct } from './fixture';
import { screenshotPath, shot } from './support';

jest.setTimeout(300_000);

const product = useProduct({
  demo: true,
  operators: [
    { username: 'mission-author', permissions: ['missions:write'] },
    { username: 'mission-checker', permissions: ['missions:write'] },
    { username: 'coin-keeper', permissions: ['gift-coins:write'] },
    { username: 'coin-checker', permissions: ['gift-coins:write'] },
  ],
});

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** Each operator signs in at a desk of their own: a browser profile nobody else signed in on. */
const signInAtOwnDesk = (username: string) => product.signInOperator(username, { ownBrowser: true });

describe("a coin's brakes", () => {
  it('console-coin-never-warning: a new coin starts with them on; a brake typed as 0 (never) is warned about', async () => {
    const page = await signInAtOwnDesk('coin-keeper');
    await page.goto(`${product.base}/admin/gift-coins/create`);
    await page.getByLabel('Name', { exact: true }).fill('Bonus Points');
    await page.getByLabel('Symbol').fill('BONUSP');
    await expect(page.getByTestId('brake-never-warning').count()).resolves.toBe(0);
    await page.getByLabel('Daily limit per operator').fill('0');
    await page.getByTestId('brake-never-warning').waitFor();
    await shot(page, 'console-coin-never-warning');
    // left empty, the brakes are the suggested ones
    await page.getByLabel('Daily limit per operator').fill('');
    await expect(page.getByTestId('brake-never-warning').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${product.base}/admin/gift-coins`);
    const coin = (await GiftCoinModel.findOne({ symbol: 'BONUSP' }))!.toJSON();
    expect(coin).toMatchObject({ giftApprovalAbove: '1000', payoutApprovalAbove: '1000', operatorDailyLimit: '5000' });
  });
});

describe('loosening a brake', () => {
  it('console-coin-brake-waiting: switching a brake to never waits on the coin for a second operator, who confirms it', async () => {
    // a coin of its own: the demo's GIFT keeps its brakes for the mission below
    const gift = (await GiftCoinModel.create({ name: 'Brake Points', symbol: 'BRAKEP', network: 'jetton' })).toObject();
    const page = await signInAtOwnDesk('coin-keeper');
    await page.goto(`${product.base}/admin/gift-coins/${String(gift._id)}`);
    await page.getByLabel('Second approval for gifts above').fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${product.base}/admin/gift-coins`);
    // the brake in force is unchanged: the 0 waits
    const waiting = (await GiftCoinModel.findById(gift._id).lean())!;
    expect([waiting.giftApprovalAbove, waiting.waitingChange?.set]).toEqual([gift.giftApprovalAbove, { giftApprovalAbove: 0 }]);

    await page.goto(`${product.base}/admin/gift-coins/${String(gift._id)}`);
    const banner = page.getByTestId('change-waiting-banner');
    await banner.getByText('Second approval for gifts above: never (off)', { exact: false }).waitFor();
    await expect(banner.getByRole('button', { name: 'Approve the change' }).isDisabled()).resolves.toBe(true);
    await shot(page, 'console-coin-brake-waiting');

    // the second operator learns of it on the dashboard (the live figures counted now, as the sweep does every 30 s)
    await refreshLiveFigures(new Date(), { force: true });
    const checker = await signInAtOwnDesk('coin-checker');
    await checker.goto(`${product.base}/admin/`);
    const listed = checker.getByTestId(`dashboard-change-${waiting.waitingChange!.id}`);
    await listed.getByText("Coin's brakes: BRAKEP").waitFor();
    await expect(listed.textContent()).resolves.toContain('Asked by coin-keeper');
    await shot(checker, 'console-dashboard-changes-waiting');
    await listed.click();
    await checker.waitForURL(`${product.base}/admin/gift-coins/${String(gift._id)}`);
    await checker.getByTestId('change-waiting-banner').getByRole('button', { name: 'Approve the change' }).click();
    const dialog = checker.getByRole('dialog');
    await dialog.getByText('From now on: Second approval for gifts above: never (off).').waitFor();
    await dialog.getByRole('button', { name: 'Approve the change' }).click();
    await checker.getByText('The change is live').waitFor();
    await checker.getByTestId('change-waiting-banner').waitFor({ state: 'detached' });
    const live = (await GiftCoinModel.findById(gift._id).lean())!;
    expect([live.giftApprovalAbove, live.waitingChange]).toEqual([0, null]);
  });
});

describe('a mission reward above its coin’s threshold', () => {
  it('console-mission-waiting: waits on the mission for a second operator, who confirms and puts it live', async () => {
    // the demo's Manual story mission pays 1,000 GIFT; GIFT's threshold is 5,000
    const mission = (await MissionModel.findOne({ title: 'Post a story about Gift Rewards' }).lean())!;
    expect(mission.reward).toBe(Number(toMicros('1000')));

    const asker = await signInAtOwnDesk('mission-author');
    await asker.goto(`${product.base}/admin/missions/${String(mission._id)}`);
    const reward = asker.getByLabel('Reward amount');
    await reward.fill('1000000');
    await asker.getByRole('button', { name: 'Save' }).click();
    await asker.waitForURL(`${product.base}/admin/missions`);
    // the list marks it; the mission still pays its live reward
    await asker.getByTestId('mission-reward-waiting').first().waitFor();
    const waiting = (await MissionModel.findById(mission._id).lean())!;
    expect([waiting.reward, waiting.enabled, waiting.waiting?.reward]).toEqual([mission.reward, true, Number(toMicros('1000000'))]);

    await asker.goto(`${product.base}/admin/missions/${String(mission._id)}`);
    const banner = asker.getByTestId('mission-reward-waiting-banner');
    await banner.getByText('1000000 GIFT per completion').waitFor();
    // the operator who asked may not approve it
    await expect(banner.getByRole('button', { name: 'Approve the reward' }).isDisabled()).resolves.toBe(true);
    await shot(asker, 'console-mission-waiting');
    expect(screenshotPath('console-mission-waiting')).toMatch(/console-mission-waiting\.png$/);

    const checker = await signInAtOwnDesk('mission-checker');
    await checker.goto(`${product.base}/admin/missions/${String(mission._id)}`);
    const theirs = checker.getByTestId('mission-reward-waiting-banner');
    await theirs.getByRole('button', { name: 'Approve the reward' }).click();
    // money: the approval asks first
    const dialog = checker.getByRole('dialog');
    await dialog.getByText('Players are paid 1000000 GIFT from now on.').waitFor();
    await dialog.getByRole('button', { name: 'Approve the reward' }).click();
    await checker.getByText('The reward is live').waitFor();
    await theirs.waitFor({ state: 'detached' });
    const live = (await MissionModel.findById(mission._id).lean())!;
    expect([live.reward, live.enabled, live.waiting]).toEqual([Number(toMicros('1000000')), true, null]);
  });
});

describe('a save from a form opened before another operator’s change was held', () => {
  it('is refused with the message to reload; the change that waits is still the other operator’s', async () => {
    // the demo's TON channel mission pays 300 GIFT; GIFT's threshold is 5,000
    const mission = (await MissionModel.findOne({ title: 'Join the TON community channel' }).lean())!;
    const path = `${product.base}/admin/missions/${String(mission._id)}`;

    // the author opens the mission's form; then the checker raises its reward, which waits for a second operator
    const author = await signInAtOwnDesk('mission-author');
    await author.goto(path);
    const title = author.getByLabel('Title', { exact: true });
    await expect(title.inputValue()).resolves.toBe('Join the TON community channel');
    const checker = await signInAtOwnDesk('mission-checker');
    await checker.goto(path);
    await checker.getByLabel('Reward amount').fill('6000');
    await checker.getByRole('button', { name: 'Save' }).click();
    await checker.waitForURL(`${product.base}/admin/missions`);
    const held = (await MissionModel.findById(mission._id).lean())!.waiting!;
    expect(held.reward).toBe(Number(toMicros('6000')));

    // the author, who never saw the raise, edits the title and saves: refused, nothing changed
    await title.fill('Join the TON channel');
    await author.getByRole('button', { name: 'Save' }).click();
    await author.getByText('Changed by someone else meanwhile: reload and save again').waitFor();
    await shot(author, 'console-save-record-changed');
    const after = (await MissionModel.findById(mission._id).lean())!;
    expect([after.title, after.reward, after.waiting?.id, String(after.waiting?.requestedBy)]).toEqual([
      mission.title,
      mission.reward,
      held.id,
      String(held.requestedBy),
    ]);

    // reloaded, the form shows the checker's reward waiting
    await author.reload();
    await author.getByTestId('mission-reward-waiting-banner').getByText('6000 GIFT per completion').waitFor();
  });
});
