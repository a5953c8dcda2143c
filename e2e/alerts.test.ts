// Alerts for operators in a real Chromium (issue 34, item 2 and defect 5): an operator links their Telegram chat from My account
// (the bot's /start op-<code> answered as Telegram would deliver it), chooses what the bot tells them, reads the menu's counts
// of what waits, and sets the hot wallet's threshold on the treasury, which then warns both ways; in English and Persian, on a
// desktop and a phone.
import type { Page } from 'playwright-core';
import { createBot } from '../server/src/modules/bot/bot.service';
import { setAppConfigFields } from '../server/src/modules/config/config.service';
import { UserMissionModel } from '../server/src/modules/missions/mission.models';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { startBotApiStandIn, STAND_IN_BOT } from '../server/test/botApiStandIn';
import { createCoin, createManualMission, createPlayer, randomAddress } from '../server/test/factories';
import { silentLogger, TEST_BOT_TOKEN } from '../server/test/helpers';
import { useTonTestChain } from '../server/test/tonChain';
import { useProduct } from './fixture';
import { DESKTOP, fits, PHONE, shot } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'lookout';
const CHAT = 9_100_001;
const CLAIMS = 3;

useTonTestChain();
const product = useProduct({
  standIn: () => startBotApiStandIn(TEST_BOT_TOKEN),
  operators: [{ username: OPERATOR, permissions: ['*'] }],
  telegram: true,
  env: (standIn) => ({ TELEGRAM_API_ROOT: standIn.apiRoot }),
  before: seed,
});

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** Three Manual claims waiting review, and a TON withdrawal waiting for more than any hot wallet holds. */
async function seed() {
  await setAppConfigFields({ botUsername: STAND_IN_BOT.username });
  const ton = await createCoin({ symbol: 'TON', name: 'Toncoin', network: 'ton', decimals: 9 });
  const { mission, category } = await createManualMission(ton);
  for (let i = 0; i < CLAIMS; i++) {
    const player = await createPlayer({ name: `Claimer ${i}` });
    await UserMissionModel.create({
      user: player._id,
      mission: mission._id,
      category: category._id,
      coin: ton._id,
      reward: 1_000_000,
      status: 'pending',
      claimedAt: new Date(),
    });
  }
  const whale = await createPlayer({ name: 'Whale' });
  await WithdrawalModel.create({
    user: whale._id,
    coin: ton._id,
    amount: 150_000_000_000,
    address: randomAddress().toRawString(),
    status: 'pending',
    idempotencyKey: 'e2e-alerts-whale',
  });
}

/** The operator presses Start in the bot through the console's link: Telegram delivers `/start op-<code>` from their chat. */
async function pressStart(link: string) {
  const text = `/start ${new URL(link).searchParams.get('start')}`;
  const from = { id: CHAT, is_bot: false, first_name: 'Lookout', language_code: 'en' };
  const message = { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: CHAT, type: 'private' }, from, text };
  const update = { update_id: 1, message: { ...message, entities: [{ type: 'bot_command', offset: 0, length: 6 }] } };
  const botInfo = { ...STAND_IN_BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false };
  await createBot(TEST_BOT_TOKEN, { env: product.env, logger: silentLogger, botInfo: botInfo as never }).handleUpdate(update as never);
}

async function openMyAccount(page: Page) {
  await page.getByRole('button', { name: /profile|پروفایل/i }).click();
  await page.getByRole('menuitem', { name: /My account|حساب من/ }).click();
  await page.waitForURL(/\/admin\/account$/);
  await page.getByTestId('alert-settings').waitFor();
}

/** Opens the menu on a phone (a drawer there). */
async function openPhoneMenu(page: Page) {
  await page.getByRole('button', { name: /Open menu|باز کردن منو/ }).click();
}

it('links Telegram from My account, chooses alerts, reads the menu counts and sets the treasury threshold, in English', async () => {
  const page = await product.signInOperator(OPERATOR);
  // the menu's counts: claims waiting review, withdrawals waiting for a decision
  await page.getByLabel(`${CLAIMS} claims waiting review`).waitFor();
  await page.getByLabel('1 withdrawals waiting for a decision').waitFor();

  await openMyAccount(page);
  await page.getByText('Not linked: the bot tells you nothing.').waitFor();
  await page.getByRole('button', { name: 'Link Telegram' }).click();
  const open = page.getByRole('link', { name: 'Open the bot' });
  await open.waitFor();
  const link = (await open.getAttribute('href'))!;
  expect(link).toMatch(/^https:\/\/t\.me\/GiftRewardsBot\?start=op-[\w-]+$/);
  await shot(page, 'alerts-link-en-desktop');

  await pressStart(link);
  expect(product.standIn.sent.filter((sent) => sent.chat_id === CHAT).map((sent) => sent.text)).toEqual([
    `This chat now gets the console's alerts for ${OPERATOR}. Choose which on My account in the console.`,
  ]);
  await page.getByTestId('alerts-linked').waitFor();
  // the operator turns broadcasts off
  const broadcasts = page.getByRole('switch', { name: 'A broadcast finished, with its counts' });
  await broadcasts.click();
  await page.getByText('Alerts saved').waitFor();
  await expect(broadcasts.isChecked()).resolves.toBe(false);
  await shot(page, 'alerts-linked-en-desktop');
  await page.setViewportSize(PHONE);
  await fits(page);
  await shot(page, 'alerts-linked-en-phone');
  await page.setViewportSize(DESKTOP);

  // the treasury: a threshold above what the hot wallet holds warns, beside the pending withdrawal it cannot pay
  await page.goto(`${product.base}/admin/treasury`);
  await page.getByTestId('treasury-shortfall-TON').waitFor();
  await page.getByTestId('treasury-threshold-TON').fill('1000000');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Threshold saved').waitFor();
  await expect(page.getByTestId('treasury-low-TON').innerText()).resolves.toMatch(
    /^TON: the hot wallet holds [\d.]+, under the 1000000 threshold/,
  );
  await shot(page, 'alerts-treasury-en-desktop');
  await page.setViewportSize(PHONE);
  await fits(page);
  await shot(page, 'alerts-treasury-en-phone');
  await page.close();
});

it('shows the same in Persian: the counts in Persian digits, My account linked, the treasury warning, on a phone and a desktop', async () => {
  const page = await product.signInOperator(OPERATOR, { signOutFirst: true, persian: true, viewport: PHONE });
  await openPhoneMenu(page);
  await page.getByLabel('۳ درخواست در انتظار بررسی').waitFor();
  await page.getByLabel('۱ برداشت در انتظار تصمیم').waitFor();
  await fits(page);
  await shot(page, 'alerts-menu-fa-phone');
  await page.keyboard.press('Escape');

  await openMyAccount(page);
  await page.getByText(/^پیوند شده: ربات به تلگرام شما پیام می‌دهد/).waitFor();
  await expect(page.getByRole('switch', { name: 'پایان یک پیام همگانی، با آمار آن' }).isChecked()).resolves.toBe(false);
  await fits(page);
  await shot(page, 'alerts-linked-fa-phone');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'alerts-linked-fa-desktop');

  await page.goto(`${product.base}/admin/treasury`);
  await page.getByTestId('treasury-low-TON').waitFor();
  await expect(page.getByTestId('treasury-low-TON').innerText()).resolves.toMatch(/کمتر از آستانهٔ/);
  await shot(page, 'alerts-treasury-fa-desktop');
  await page.setViewportSize(PHONE);
  await fits(page);
  await shot(page, 'alerts-treasury-fa-phone');

  // unlinked from the console: the bot writes no more
  await page.goto(`${product.base}/admin/account`);
  await page.getByRole('button', { name: 'لغو پیوند' }).click();
  await page.getByText('پیوند نشده: ربات چیزی به شما نمی‌گوید.').waitFor();
  await page.close();
});
