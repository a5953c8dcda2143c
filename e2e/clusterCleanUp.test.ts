// A risk cluster cleaned up in a real Chromium: from a farm's referrer's Risk tab, an operator reads what banning the farm and
// taking back what it earned would do, confirms it with the reason the players read, and reads what was done; in English and in
// Persian, at 1280×800 and 390×844, with the referrer's wallet readable (UQ…, never the raw 0: form).
import type { Page } from 'playwright-core';
import { Address } from '@ton/core';
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { postEntry } from '../server/src/modules/ledger/ledger.service';
import { assessPlayer } from '../server/src/modules/risk/risk.service';
import { ClawBackModel } from '../server/src/modules/clawbacks/clawBack.model';
import { UserModel } from '../server/src/modules/users/user.model';
import { WalletLinkModel } from '../server/src/modules/wallet/wallet.models';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, screenshotPath } from './support';

jest.setTimeout(300_000);

const FRIENDS = 6;
const CASES = [
  { name: 'en-desktop', viewport: DESKTOP, persian: false },
  { name: 'en-phone', viewport: PHONE, persian: false },
  { name: 'fa-desktop', viewport: DESKTOP, persian: true },
  { name: 'fa-phone', viewport: PHONE, persian: true },
] as const;

const product = useProduct({ operators: [{ username: 'cleaner', permissions: ['users:write', 'gifts:write'] }], before: seedFarms });

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** The wallet of farm `n`'s referrer, raw and as wallets show it. */
const walletOf = (n: number) => {
  const address = Address.parseRaw(
    `0:${String(n + 1)
      .repeat(64)
      .slice(0, 64)}`,
  );
  return { raw: address.toRawString(), friendly: address.toString({ bounceable: false }) };
};

/**
 * One farm per case: a referrer with a wallet and six friends who joined within a minute, each friend paid 100 GIFT for a
 * mission and the referrer 10 GIFT for each; the third friend has spent 70 of theirs.
 */
async function seedFarms() {
  const coin = await GiftCoinModel.create({ name: 'Gift Coin', symbol: 'GIFT', decimals: 9 });
  const credit = (user: unknown, amount: string, reason: 'mission' | 'referral' | 'withdraw', refId = '') =>
    postEntry({
      userId: String(user),
      coinId: coin._id,
      amount: amount.startsWith('-') ? -toMicros(amount.slice(1)) : toMicros(amount),
      reason,
      refType: refId ? 'User' : '',
      refId,
      idempotencyKey: `e2e-cleanup:${String(user)}:${reason}:${refId}:${amount}`,
    });
  const start = Date.now() - 3_600_000;
  for (const [n] of CASES.entries()) {
    const wallet = walletOf(n);
    const boss = await UserModel.create({
      telegramId: 7_100_000 + n,
      name: `Farm Boss ${n}`,
      referralCode: `e2ecleanboss${n}`,
      walletAddresses: [wallet.raw],
      createdAt: new Date(start - 86_400_000),
    });
    await WalletLinkModel.create({ address: wallet.raw, user: boss._id, network: '-239' });
    for (let i = 0; i < FRIENDS; i++) {
      const friend = await UserModel.create({
        telegramId: 7_200_000 + n * 100 + i,
        name: `Farmhand ${n}-${i}`,
        referralCode: `e2eclean${n}x${i}`,
        referrer: boss._id,
        createdAt: new Date(start + i * 5_000),
      });
      await credit(friend._id, '100', 'mission');
      await credit(boss._id, '10', 'referral', String(friend._id));
      if (i === 2) await credit(friend._id, '-70', 'withdraw');
    }
    await assessPlayer(boss._id);
  }
}

const withoutMarks = (text: string) => text.replace(/[\u2066\u2069]/g, '').trim();

/** The words a case reads, in its language. */
function words(persian: boolean) {
  return persian
    ? {
        riskTab: 'ریسک',
        signal: 'دوست در یک دقیقه پیوستند',
        action: 'محروم کردن و پس گرفتن',
        ask: 'محروم کردن ۶ بازیکن و پس گرفتن ۶۰۰ GIFT و ۶۰ GIFT از ۱ معرف.',
        cover: /موجودی‌هایشان اکنون ۵۹۰ GIFT.*۷۰ GIFT بدهی می‌ماند/,
        reason: 'حساب‌های زیادی با یک دعوت با هم وارد شدند',
        done: '۶ بازیکن محروم شدند و ۶۰۰ GIFT پس گرفته شد و ۶۰ GIFT از ۱ معرف.',
        close: 'ببند',
      }
    : {
        riskTab: 'Risk',
        signal: 'friends joined within one minute',
        action: 'Ban and take back',
        ask: 'Ban 6 players and take back 600 GIFT and 60 GIFT from 1 referrer.',
        cover: /Their balances cover 590 GIFT now; 70 GIFT stays owed/,
        reason: 'Many accounts joined together through one invite',
        done: 'Banned 6 players and took back 600 GIFT and 60 GIFT from 1 referrer.',
        close: 'Close',
      };
}

async function expectNoOverflow(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("a risk cluster's clean-up", () => {
  for (const [n, { name, viewport, persian }] of CASES.entries())
    it(`bans the farm and takes back what it earned, said before and after (${name})`, async () => {
      const say = words(persian);
      const boss = (await UserModel.findOne({ telegramId: 7_100_000 + n }))!;
      const page = await product.signInOperator('cleaner', { viewport, persian, signOutFirst: true });
      await page.goto(`${product.base}/admin/users/${String(boss._id)}/show`);
      await page.getByRole('tab', { name: say.riskTab }).click();

      // the wallet as wallets show it, whole on hover and copy; never the raw form
      const wallet = walletOf(n);
      const shown = page.locator(`[data-address="${wallet.friendly}"]`);
      await shown.waitFor();
      expect(await shown.innerText()).toBe(`${wallet.friendly.slice(0, 6)}…${wallet.friendly.slice(-6)}`);
      await expect(page.getByText(/^0:/).count()).resolves.toBe(0);

      const line = page.getByRole('listitem').filter({ hasText: say.signal });
      await line.getByRole('button', { name: say.action }).click();
      const dialog = page.getByRole('dialog');
      const sentence = dialog.getByTestId('clean-up-sentence');
      await sentence.waitFor();
      expect(withoutMarks(await sentence.innerText())).toBe(say.ask);
      expect(withoutMarks(await dialog.innerText())).toMatch(say.cover);
      // nothing is done before the operator confirms
      await expect(UserModel.countDocuments({ referrer: boss._id, status: 'banned' })).resolves.toBe(0);
      await dialog.getByRole('button', { name: say.reason }).click();
      if (viewport === PHONE) await expectNoOverflow(page, PHONE.width);
      await page.screenshot({ path: screenshotPath(`console-cluster-cleanup-ask-${name}`) });

      await dialog.getByRole('button', { name: say.action }).click();
      await dialog.getByText(say.done.slice(0, 12)).waitFor();
      expect(withoutMarks(await sentence.innerText())).toBe(say.done);
      await page.screenshot({ path: screenshotPath(`console-cluster-cleanup-done-${name}`) });
      await dialog.getByRole('button', { name: say.close }).click();
      await dialog.waitFor({ state: 'hidden' });
      if (viewport === PHONE) await expectNoOverflow(page, PHONE.width);

      const friends = await UserModel.find({ referrer: boss._id }).lean();
      expect(friends.map((friend) => friend.status)).toEqual(Array(FRIENDS).fill('banned'));
      expect(friends[0]!.statusReason).toBe('Many accounts joined together through one invite');
      // one claw-back per credit: six missions and six referral rewards
      await expect(ClawBackModel.countDocuments({ user: { $in: [boss._id, ...friends.map((friend) => friend._id)] } })).resolves.toBe(
        2 * FRIENDS,
      );
      await page.close();
    });
});
