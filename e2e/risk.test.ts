// Fraud defence in a real Chromium: an operator finds a farm on the Risk list, opens its cluster and freezes it in bulk; a frozen
// player then reads the reason in the app, in English and in Persian.
import type { Page } from 'playwright-core';
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { AppConfigModel } from '../server/src/modules/config/appConfig.model';
import { setPlayerStatus } from '../server/src/modules/users/playerStatus.service';
import { assessPlayer } from '../server/src/modules/risk/risk.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { useProduct } from './fixture';
import { screenshotPath, shot } from './support';

jest.setTimeout(300_000);

const FARM = 50;
const BOSS_TELEGRAM = 6_100_000;
const FRIEND_TELEGRAM = 6_100_100;

const product = useProduct({ telegram: true, operators: [{ username: 'sentinel', permissions: ['*'] }], before: seedFarm });

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
});

/** A farm: fifty accounts through one invite within a minute, beside an honest player; each assessed. */
async function seedFarm() {
  const boss = await UserModel.create({
    telegramId: BOSS_TELEGRAM,
    name: 'Farm Boss',
    referralCode: 'e2efarmboss',
    createdAt: new Date(Date.now() - 86_400_000),
  });
  // fifty accounts through one invite within a minute, five at a time in the same second, none doing anything
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < FARM; i++)
    await UserModel.create({
      telegramId: FRIEND_TELEGRAM + i,
      firstName: `Farmhand ${i}`,
      name: `Farmhand ${i}`,
      referralCode: `e2efarm${i}`,
      referrer: boss._id,
      language: i === 1 ? 'fa' : 'en',
      createdAt: new Date(start + Math.floor(i / 5) * 5_000),
    });
  await UserModel.create({ telegramId: 6_200_000, name: 'Honest Player', referralCode: 'e2ehonest', isPremium: true });
  // the sweep assesses players as their records change; here at once, so the list is ready
  for (const player of await UserModel.find({}, { _id: 1 }).lean()) await assessPlayer(player._id);
}

it('an operator finds the farm on the Risk list, reads why, opens its cluster and freezes all fifty at once', async () => {
  const page = await product.signInOperator('sentinel');
  await page.getByRole('menuitem', { name: 'Risk' }).click();
  // high risk first: the farm's referrer, with the signals in words
  const first = page.locator('tbody tr').first();
  await first.getByText('Farm Boss').waitFor();
  await first.getByText('50 friends in a minute').waitFor();
  await expect(page.getByText('Honest Player').count()).resolves.toBe(0);
  await shot(page, 'console-risk-list');

  await first.getByText('Farm Boss').click();
  await page.getByRole('tab', { name: 'Risk' }).click();
  await page.getByText('50 friends joined within one minute (50 friends in all)').waitFor();
  await page.getByText('5 friends joined in the same second').waitFor();
  await page.getByText('50 of 50 friends never did a mission').waitFor();
  await page.getByText(/^High: freeze the player/).waitFor();
  await shot(page, 'console-player-risk');

  // the cluster: the friends, newest first, fifty to a page
  await page
    .getByRole('listitem')
    .filter({ hasText: '50 friends joined within one minute' })
    .getByRole('link', { name: 'Show these players' })
    .click();
  await page.getByText('Farmhand 49').waitFor();
  await expect(page.locator('tbody tr').count()).resolves.toBe(FARM);
  await page.locator('thead input[type="checkbox"]').check();
  await page.getByRole('button', { name: 'Freeze' }).click();
  const dialog = page.getByRole('dialog');
  // the dialog asks what will be done; the notice afterwards says what was done
  await dialog.getByText('Freeze 50 players?').waitFor();
  // the common reason fills both languages
  await dialog.getByRole('button', { name: 'Many accounts joined together through one invite' }).click();
  await expect(dialog.locator('textarea[name="fa.statusReason"]').inputValue()).resolves.toBe('حساب‌های زیادی با یک دعوت با هم وارد شدند');
  // the dialog as the operator sees it (a full-page capture resizes the window, which closes it)
  await page.screenshot({ path: screenshotPath('console-cluster-freeze') });
  await dialog.getByRole('button', { name: 'Freeze' }).click();
  await page.getByText('Frozen: 50 players').last().waitFor();
  await page.locator('tbody tr').first().getByText('Frozen').waitFor();
  await shot(page, 'console-cluster-frozen');

  const frozen = await UserModel.find({ referrer: (await UserModel.findOne({ telegramId: BOSS_TELEGRAM }))!._id }).lean();
  expect(frozen.map((friend) => friend.status)).toEqual(Array(FARM).fill('frozen'));
  expect(frozen[1]).toMatchObject({
    statusReason: 'Many accounts joined together through one invite',
    fa: { statusReason: 'حساب‌های زیادی با یک دعوت با هم وارد شدند' },
  });
  await page.close();
});

const openAs = (telegramId: number, language: string, path = '/', firstName = 'Farmhand'): Promise<Page> =>
  product.openPlayer(path, { id: telegramId, first_name: firstName, language_code: language });

it('a frozen player reads the reason in the app, in English', async () => {
  const page = await openAs(FRIEND_TELEGRAM, 'en');
  await page
    .getByRole('status')
    .filter({ hasText: 'Your account is frozen: Many accounts joined together through one invite. You can look around;' })
    .waitFor();
  await shot(page, 'player-frozen-en');
  await page.close();
});

it('a frozen player reads the reason in the app, in Persian', async () => {
  const page = await openAs(FRIEND_TELEGRAM + 1, 'fa');
  await page.getByRole('status').filter({ hasText: 'حساب شما مسدود موقت است: حساب‌های زیادی با یک دعوت با هم وارد شدند.' }).waitFor();
  await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
  await shot(page, 'player-frozen-fa');
  await page.close();
});

it('a banned player reads why, and nothing else, in English and in Persian', async () => {
  const boss = (await UserModel.findOne({ telegramId: BOSS_TELEGRAM }))!;
  const banned = await UserModel.create({ telegramId: 6_300_000, name: 'Banned', referralCode: 'e2ebanned', language: 'fa' });
  for (const id of [boss._id, banned._id])
    await setPlayerStatus(id, { status: 'banned', statusReason: 'Several accounts', fa: { statusReason: 'چند حساب' } }, new Date());
  const english = await openAs(BOSS_TELEGRAM, 'en');
  await english.getByRole('alert').filter({ hasText: 'Your account is blocked: Several accounts' }).waitFor();
  await expect(english.getByRole('navigation', { name: 'Main' }).count()).resolves.toBe(0);
  await shot(english, 'player-banned-en');
  await english.close();
  const persian = await openAs(6_300_000, 'fa');
  await persian.getByRole('alert').filter({ hasText: 'حساب شما مسدود شده است: چند حساب' }).waitFor();
  await shot(persian, 'player-banned-fa');
  await persian.close();
});

it('the invite page shows friends joined apart from qualified, and what a friend must do, in English and in Persian', async () => {
  const coin = await GiftCoinModel.create({ name: 'Gift Coin', symbol: 'GIFT', decimals: 9 });
  await AppConfigModel.updateOne(
    { key: 'app' },
    {
      $set: {
        botUsername: 'GiftRewardsBot',
        miniAppName: 'app',
        referrerCoin: coin._id,
        referrerCoinAmount: Number(toMicros('5')),
        referralQualification: { doneMissions: 3, activeDays: 0, premiumRewardPercent: 200 },
      },
    },
    { upsert: true },
  );
  const inviter = await UserModel.create({ telegramId: 6_400_000, name: 'Inviter', referralCode: 'e2einviter', referrersCount: 3 });
  for (let i = 0; i < 3; i++)
    await UserModel.create({
      telegramId: 6_400_001 + i,
      name: `Invited ${i}`,
      referralCode: `e2einvited${i}`,
      referrer: inviter._id,
      referralState: i === 0 ? 'rewarded' : 'joined',
    });
  for (const [language, rule, shotName] of [
    [
      'en',
      'A friend earns you the reward once they finish 3 missions. Telegram Premium friends earn you 200% of it.',
      'player-invite-qualified-en',
    ],
    ['fa', 'دوست شما وقتی ۳ ماموریت را انجام دهد، پاداش را برای شما می‌آورد.', 'player-invite-qualified-fa'],
  ] as const) {
    const page = await openAs(6_400_000, language, '/invite', 'Inviter');
    if (language === 'fa') {
      // the app follows the player's saved language; the first launch saved English
      await UserModel.updateOne({ telegramId: 6_400_000 }, { $set: { language: 'fa' } });
      await page.reload();
    }
    await page.getByText(rule).waitFor();
    await page
      .getByTestId('invite-joined')
      .filter({ hasText: language === 'fa' ? '۳' : '3' })
      .waitFor();
    await page
      .getByTestId('invite-qualified')
      .filter({ hasText: language === 'fa' ? '۱' : '1' })
      .waitFor();
    await shot(page, shotName);
    await page.close();
  }
});
