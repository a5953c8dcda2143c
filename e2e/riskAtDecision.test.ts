// Issue 34 item 1 in a real Chromium, in English and in Persian, at 1280×800 and 390×844: the pending withdrawals list
// shows each player's risk, a withdrawal's page shows the player beside the decision (risk, age, balance, what was paid)
// and says when their risk holds the payout, and App Config offers the rule that holds it.
import type { Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { UserModel } from '../server/src/modules/users/user.model';
import { WalletLinkModel } from '../server/src/modules/wallet/wallet.models';
import { createCoin, createPlayer, fund, playerCaller, randomAddress } from '../server/test/factories';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, screenshotPath } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'risk-desk';
let withdrawalId = '';
let tab: Page | undefined;
let page: Page;

const product = useProduct({ operators: [{ username: OPERATOR, permissions: ['*'] }], before: seed });

afterAll(async () => {
  await tab?.close();
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** A player of a farm (risk 104, high) asking for 1,645 GIFT minutes after linking a wallet. */
async function seed() {
  const coin = await createCoin({ symbol: 'GIFT', name: 'Gift' });
  const player = await createPlayer({ name: 'Risky Farmer' });
  await fund(player._id, coin._id, '2000');
  await WalletLinkModel.create({ address: randomAddress().toRawString(), user: player._id, network: '-239' });
  const request = await playerCaller(player).withdrawals.request({
    coinId: coin.id,
    amount: '1645',
    idempotencyKey: `e2e-${randomBytes(6).toString('hex')}`,
  });
  withdrawalId = request.id;
  // as the risk sweep leaves it after the request
  await UserModel.updateOne({ _id: player._id }, { $set: { risk: { score: 104, level: 'high', signals: [], assessedAt: new Date() } } });
}

const WORDS = {
  en: { player: 'The player: Risky Farmer', chip: '104 · High', hold: 'Hold payouts of players at', balance: 'Balance now: 355 GIFT' },
  fa: { player: 'بازیکن: Risky Farmer', chip: '۱۰۴، ', hold: 'نگه‌داشتن پرداخت بازیکنان در سطح', balance: 'موجودی کنونی: ۳۵۵ GIFT' },
} as const;

/** The screenshot, taken for looking at; on a phone the page never scrolls sideways. */
async function look(name: string) {
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
  if (page.viewportSize()!.width === PHONE.width)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe.each([
  ['en', 'desktop', DESKTOP],
  ['en', 'phone', PHONE],
  ['fa', 'desktop', DESKTOP],
  ['fa', 'phone', PHONE],
] as const)('in %s on a %s', (language, size, viewport) => {
  const words = WORDS[language];
  const name = (what: string) => `console-risk-decision-${what}-${language}-${size}`;
  beforeAll(async () => {
    if (size === 'desktop') {
      await tab?.close();
      tab = await product.signInOperator(OPERATOR, { signOutFirst: true, persian: language === 'fa' });
    }
    await tab!.setViewportSize(viewport);
    page = tab!;
  });

  it("shows the player's risk in the pending withdrawals", async () => {
    await page.goto(`${product.base}/admin/withdraw`);
    const row = page.getByText('Risky Farmer').first();
    await row.waitFor();
    await page.getByText(words.chip).first().waitFor();
    await look(name('list'));
  });

  it('shows the player beside the decision, and that their risk holds the payout', async () => {
    await page.goto(`${product.base}/admin/withdraws/${withdrawalId}`);
    const beside = page.getByTestId('withdrawal-player');
    await beside.getByText(words.player).waitFor();
    await expect(beside.textContent()).resolves.toContain(words.chip);
    await expect(beside.textContent()).resolves.toContain(words.balance);
    await beside.getByTestId('withdrawal-risk-hold').waitFor();
    await look(name('page'));
  });

  it('offers the App Config rule that holds payouts by risk', async () => {
    await page.goto(`${product.base}/admin/app-config`);
    const rule = page.getByLabel(words.hold);
    await rule.waitFor();
    await rule.scrollIntoViewIfNeeded();
    await look(name('rule'));
  });
});
