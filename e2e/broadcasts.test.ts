// An operator's broadcast in a real Chromium, sent by the product's own bot runtime through the Bot API stand-in.
import type { Page } from 'playwright-core';
import { BotRuntime } from '../server/src/modules/bot/botRuntime';
import { BroadcastModel, BroadcastRecipientModel } from '../server/src/modules/broadcasts/broadcast.model';
import { INTERRUPTED } from '../server/src/modules/broadcasts/broadcastSender.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { startBotApiStandIn } from '../server/test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger } from '../server/test/helpers';
import { useProduct } from './fixture';
import { DESKTOP, shot } from './support';

jest.setTimeout(300_000);

const OPERATOR_TELEGRAM = 555_000_111;
const PLAYERS = 240;
const TEXT = '<b>Round two</b> is open: new missions &amp; a bigger pool';
const FA_TEXT = '<b>دور دوم</b> باز شد: ماموریت‌های تازه';

const product = useProduct({
  standIn: () => startBotApiStandIn(TEST_BOT_TOKEN),
  operators: [{ username: 'announcer', permissions: ['*'], telegramId: OPERATOR_TELEGRAM }],
  // players who allow messages, a quarter of them in Persian, and some who never allowed any
  before: () =>
    UserModel.insertMany(
      Array.from({ length: PLAYERS + 20 }, (_, i) => ({
        telegramId: 8_000_000 + i,
        name: `Player ${i}`,
        referralCode: `e2ebroadcast${i}`,
        language: i % 4 === 0 ? 'fa' : 'en',
        messagePermission: i < PLAYERS,
      })),
    ),
  telegram: true,
  env: (standIn) => ({ TELEGRAM_API_ROOT: standIn.apiRoot, BROADCAST_RATE: '20' }),
});
let bot: BotRuntime;

beforeAll(async () => {
  // the bot as the server runs it: its notification sender and its broadcast sender
  bot = new BotRuntime({ env: product.env, logger: silentLogger });
  await bot.start();
});

// stopped by the last test while the database is there; here only when a test failed before it
afterAll(() => bot?.stop().catch(() => undefined));

const toPlayers = () => product.standIn.sent.filter((m) => m.chat_id !== OPERATOR_TELEGRAM);

/** Waits until the sender holds no recipient: none claimed for sending, none being sent. */
async function nothingHeld() {
  const held = () =>
    BroadcastRecipientModel.countDocuments({ $or: [{ status: 'sending' }, { status: 'queued', leaseHolder: { $ne: '' } }] });
  for (let tries = 0; (await held()) > 0 && tries < 300; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await held()).toBe(0);
}

async function confirm(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
}

it('an operator writes a broadcast in both languages with a button, counts it, tests it, starts, pauses, resumes and watches it finish', async () => {
  const page = await product.signInOperator('announcer');
  await page.goto(`${product.base}/admin/broadcasts/create`);
  await page.locator('textarea[name="text"]').fill(TEXT);
  await page.locator('textarea[name="fa.text"]').fill(FA_TEXT);
  await page.locator('input[name="button.text"]').fill('Open missions');
  await page.locator('input[name="button.fa.text"]').fill('ماموریت‌ها');
  await page.locator('input[name="button.path"]').fill('/missions');
  // the preview reads the formatting as Telegram will; the count is everyone who allows messages
  await page.locator('b', { hasText: 'Round two' }).first().waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: `This reaches ${PLAYERS} players who allow messages` })
    .waitFor();
  // narrowed to Persian players, the count follows
  await page.getByLabel('Language').click();
  await page.getByRole('option', { name: 'فارسی' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `This reaches ${PLAYERS / 4} players` })
    .waitFor();
  await page.getByLabel('Language').click();
  // the empty choice, as react-admin names it
  await page.getByRole('option', { name: 'Clear value' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `This reaches ${PLAYERS} players` })
    .waitFor();
  await shot(page, 'console-broadcast-write');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/\/admin\/broadcasts\/[0-9a-f]{24}\/show$/);
  await page.getByText('Goes to: every player who allows messages').waitFor();

  // a test to the operator's own Telegram, in both languages, before anyone else gets it
  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await page.getByText('Test sent to your Telegram (English, فارسی)').waitFor();
  expect(product.standIn.sent.filter((m) => m.chat_id === OPERATOR_TELEGRAM).map((m) => m.text)).toEqual([TEXT, FA_TEXT]);
  expect(toPlayers()).toHaveLength(0);

  await page.getByRole('button', { name: 'Start sending' }).click();
  await page.getByRole('dialog').getByText(`Send this to ${PLAYERS} players now?`).waitFor();
  await confirm(page);
  await page.getByText('Sending', { exact: true }).first().waitFor();
  for (let i = 0; i < 600 && toPlayers().length < 40; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(toPlayers().length).toBeGreaterThanOrEqual(40);

  await page.getByRole('button', { name: 'Pause' }).click();
  await confirm(page);
  await page.getByText('Paused', { exact: true }).first().waitFor();
  // what was claimed before the pause is settled (a busy machine may take longer than this to send it); then nothing more
  // goes out
  await new Promise((resolve) => setTimeout(resolve, 2500));
  await nothingHeld();
  const atPause = toPlayers().length;
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(toPlayers().length).toBe(atPause);
  expect(atPause).toBeLessThan(PLAYERS);
  await page.locator('[data-figure="sent"]').getByText(String(atPause)).waitFor({ timeout: 10_000 });
  await shot(page, 'console-broadcast-paused');

  await page.getByRole('button', { name: 'Resume' }).click();
  await page
    .getByRole('dialog')
    .getByText(/Resume sending to the \d+ players left\?/)
    .waitFor();
  await confirm(page);
  await page.getByText('Done', { exact: true }).first().waitFor({ timeout: 120_000 });
  await page.locator('[data-figure="sent"]').getByText(String(PLAYERS)).waitFor();
  await page.locator('[data-figure="remaining"]').getByText('0', { exact: true }).waitFor();
  await shot(page, 'console-broadcast-done');

  // each player once, in their language, with the button to the missions page
  const chats = toPlayers().map((m) => m.chat_id);
  expect(chats).toHaveLength(PLAYERS);
  expect(new Set(chats).size).toBe(PLAYERS);
  const persian = toPlayers().find((m) => m.chat_id === 8_000_000)!;
  expect(persian.text).toBe(FA_TEXT);
  expect(persian.reply_markup).toEqual({ inline_keyboard: [[{ text: 'ماموریت‌ها', url: expect.stringContaining('t.me/') as string }]] });
  // the list reads the message as players do, with its outcome
  await page.goto(`${product.base}/admin/broadcasts`);
  const row = page.getByRole('row').filter({ hasText: 'Round two is open: new missions & a bigger pool' });
  await row.getByText('Done', { exact: true }).waitFor();
  await row.getByText(`${PLAYERS} of ${PLAYERS}`).waitFor();
  await shot(page, 'console-broadcast-list');
  const record = (await BroadcastModel.findOne().lean())!;
  expect(record).toMatchObject({ status: 'done', audience: PLAYERS, sent: PLAYERS, failed: 0, blocked: 0 });
  await page.close();
});

it('sends whose outcome is unknown are shown apart, and resent once after a confirmation that warns of duplicates', async () => {
  // what a sender killed mid-send leaves, settled by another instance: two sends in flight, outcome unknown
  const broadcast = (await BroadcastModel.findOne().lean())!;
  const caught = await BroadcastRecipientModel.find({ broadcast: broadcast._id }).sort({ _id: 1 }).limit(2).lean();
  await BroadcastRecipientModel.updateMany(
    { _id: { $in: caught.map((r) => r._id) } },
    { $set: { status: 'unknown', outcome: INTERRUPTED, sentAt: null } },
  );
  await BroadcastModel.updateOne({ _id: broadcast._id }, { $set: { sent: PLAYERS - 2, unknown: 2 } });
  const before = toPlayers().length;

  // signed in by the test before (the browser keeps the session)
  const page = await product.openPage(DESKTOP);
  await page.goto(`${product.base}/admin/broadcasts/${String(broadcast._id)}/show`);
  await page.locator('[data-figure="unknown"]').getByText('2', { exact: true }).waitFor();
  await page.getByText('2 sends were in flight when a sender stopped').waitFor();
  await page.getByRole('cell', { name: 'Outcome unknown' }).first().waitFor();
  await page.getByRole('button', { name: 'Resend to the unknown (2)' }).click();
  await page
    .getByRole('dialog')
    .getByText(/some of them may already have it and will get it twice/)
    .waitFor();
  // the dialog's fade-in, for the picture
  await new Promise((resolve) => setTimeout(resolve, 400));
  await shot(page, 'console-broadcast-resend-unknown');
  // asked first: nothing goes out until confirmed
  expect(toPlayers()).toHaveLength(before);
  await confirm(page);
  await page.getByText('Resending to 2 players').waitFor();
  await page.getByText('Done', { exact: true }).first().waitFor({ timeout: 60_000 });
  await page.locator('[data-figure="sent"]').getByText(String(PLAYERS)).waitFor();
  await page.locator('[data-figure="unknown"]').getByText('0', { exact: true }).waitFor();
  await expect(page.getByRole('button', { name: /Resend to the unknown/ }).count()).resolves.toBe(0);
  // those two players, once each
  expect(
    toPlayers()
      .slice(before)
      .map((m) => m.chat_id)
      .sort(),
  ).toEqual(caught.map((r) => r.telegramId).sort());
  expect(await BroadcastModel.findById(broadcast._id).lean()).toMatchObject({ status: 'done', sent: PLAYERS, unknown: 0 });
  await page.close();
});

it('raised no script error and showed no label without a translation', async () => {
  await bot.stop();
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});
