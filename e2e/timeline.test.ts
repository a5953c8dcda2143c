// A player's timeline in a real Chromium (issue 34, item 6), in English and in Persian, at 1280×800 and 390×844: the player
// opens the app from Telegram, and an operator reads the launch beside the player's mission, ledger, withdrawal, broadcast
// and status, filters it by kind, loads more, and adds an internal note that then heads the timeline.
import { toMicros } from '@gift/shared';
import { AccountModel } from '../server/src/modules/accounts/account.model';
import { AuditEntryModel } from '../server/src/modules/audit/audit.model';
import { BroadcastModel, BroadcastRecipientModel } from '../server/src/modules/broadcasts/broadcast.model';
import { UserMissionModel } from '../server/src/modules/missions/mission.models';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { createCoin, createManualMission, createPlayer, fund } from '../server/test/factories';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, shot } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'timeline-operator';
const TELEGRAM_ID = 6_900_001;
let playerId = '';

const product = useProduct({ telegram: true, operators: [{ username: OPERATOR, permissions: ['*'] }], before: seed });

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** A player with a claimed mission, 30 gifts on the ledger, a paid withdrawal, a broadcast received and a freeze. */
async function seed() {
  const coin = await createCoin({ symbol: 'GIFT', name: 'Gift' });
  const player = await createPlayer({ telegramId: TELEGRAM_ID, name: 'Tara Timeline', lastSeenAt: new Date(Date.now() - 86_400_000) });
  playerId = String(player._id);
  const hour = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
  for (let i = 0; i < 30; i++) await fund(player._id, coin._id, String(i + 1));
  const { mission, category } = await createManualMission(coin, 2_500_000, 'Follow us');
  await UserMissionModel.create({
    user: player._id,
    mission: mission._id,
    category: category._id,
    coin: coin._id,
    reward: 2_500_000,
    status: 'pending',
    startedAt: hour(5),
    claimedAt: hour(4.9),
  });
  await WithdrawalModel.create({
    user: player._id,
    coin: coin._id,
    amount: Number(toMicros('12.5')),
    address: `0:${'b'.repeat(64)}`,
    status: 'done',
    idempotencyKey: `timeline-e2e:${playerId}`,
    approvedAt: hour(3),
    processedAt: hour(2.5),
  });
  const broadcast = await BroadcastModel.create({ text: 'Double rewards this weekend', status: 'done' });
  await BroadcastRecipientModel.create({
    broadcast: broadcast._id,
    user: player._id,
    telegramId: TELEGRAM_ID,
    status: 'sent',
    sentAt: hour(2),
  });
  await AuditEntryModel.create({
    // a freeze by another operator of the team
    account: (await AccountModel.create({ username: 'maria', passwordHash: 'x', permissions: ['users:write'] }))._id,
    username: 'maria',
    action: 'update',
    resource: 'users',
    record: playerId,
    before: { status: 'active' },
    after: { status: 'frozen', statusReason: 'Checking the wallet' },
  });
}

/** What the operator reads, in English and in Persian. */
const WORDS = {
  tab: ['Timeline', 'رویدادها'],
  note: ['Internal note', 'یادداشت داخلی'],
  add: ['Add note', 'افزودن یادداشت'],
  more: ['Load more', 'بیشتر'],
  show: ['Show', 'نمایش'],
  notes: ['Note', 'یادداشت'],
  all: ['Everything', 'همه'],
  launch: ['Opened the app', 'برنامه را باز کرد'],
  claimed: ['Claimed “Follow us” (2.5 GIFT)', '«Follow us» را دریافت کرد (۲٫۵ GIFT)'],
  paid: ['Withdrawal of 12.5 GIFT paid', 'برداشت ۱۲٫۵ GIFT پرداخت شد'],
  frozen: ['Frozen', 'مسدود موقت شد'],
} as const;
const wordsIn = (language: 'en' | 'fa') =>
  Object.fromEntries(Object.entries(WORDS).map(([key, both]) => [key, both[language === 'en' ? 0 : 1]])) as Record<
    keyof typeof WORDS,
    string
  >;

it('records the launch when the player opens the app from Telegram', async () => {
  const app = await product.openPlayer('/', { id: TELEGRAM_ID, first_name: 'Tara', language_code: 'en' });
  await app.getByRole('navigation', { name: 'Main' }).waitFor();
  await app.close();
});

describe.each([
  ['en', DESKTOP, 'desktop'],
  ['en', PHONE, 'phone'],
  ['fa', DESKTOP, 'desktop'],
  ['fa', PHONE, 'phone'],
] as const)('the Timeline tab in %s', (language, viewport, size) => {
  it(`shows every kind, loads more, filters, and adds a note that then heads it (${size})`, async () => {
    const words = wordsIn(language);
    const page = await product.signInOperator(OPERATOR, { viewport, signOutFirst: true, persian: language === 'fa' });
    await page.goto(`${product.base}/admin/users/${playerId}/show`);
    await page.getByRole('tab', { name: words.tab }).click();
    const timeline = page.getByRole('list', { name: words.tab });
    // the newest 25: the notes of the earlier runs, the launch, the freeze, the withdrawal's request, then the gifts
    for (const line of [words.launch, words.frozen]) await timeline.getByText(line, { exact: true }).waitFor();
    await expect(timeline.getByRole('listitem').count()).resolves.toBe(25);
    // older: the broadcast, the withdrawal's payment, the mission's claim
    await page.getByRole('button', { name: words.more }).click();
    for (const line of [words.paid, words.claimed]) await timeline.getByText(line, { exact: true }).waitFor();

    const text = language === 'fa' ? `مدارک را خواست (${size})` : `Asked for an ID (${size})`;
    await page.getByRole('textbox', { name: words.note }).fill(`  ${text}  `);
    await page.getByRole('button', { name: words.add }).click();
    await timeline.getByRole('listitem').first().getByText(text, { exact: false }).waitFor();

    // one kind: the notes alone, this one among them
    await page.getByRole('combobox', { name: words.show }).click();
    await page.getByRole('option', { name: words.notes, exact: true }).click();
    await timeline.getByRole('listitem').first().getByText(text, { exact: false }).waitFor();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('ol li')).every((line) => line.getAttribute('data-kind') === 'note'),
    );
    await page.getByRole('combobox', { name: words.show }).click();
    await page.getByRole('option', { name: words.all }).click();
    await timeline.getByText(words.frozen, { exact: true }).waitFor();

    if (language === 'fa') {
      const shown = await timeline.innerText();
      expect(shown).not.toMatch(/[0-9]/);
    }
    if (viewport === PHONE) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, `console-timeline-${language}-${size}`);
    await page.close();
  });
});
