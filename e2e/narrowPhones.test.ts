// The player's screens on narrow phones (390, 360 and 320 px wide), in a real Chromium: the Manual mission's proof form
// (a fieldset keeps `min-width: min-content` unless told otherwise, and that once held the whole page 373 px wide), the
// mining card's tiles, the banners' pictures in the player's language and Currency with coins locked in stakes.
import type { Page } from 'playwright-core';
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { postEntry } from '../server/src/modules/ledger/ledger.service';
import { MissionModel } from '../server/src/modules/missions/mission.models';
import { StakingCoinModel } from '../server/src/modules/staking/staking.models';
import { stake } from '../server/src/modules/staking/staking.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { finishStarMissions, useProduct } from './fixture';
import { screenshotPath, shot } from './support';

jest.setTimeout(300_000);

const product = useProduct({ demo: true, telegram: true });

/** How far the page reaches past the screen's right edge, how far the proof form reaches from the side it starts on, and where the tab bar ends. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const proof = document.querySelector('fieldset.proof')!.getBoundingClientRect();
    const tabs = document.querySelector('nav[aria-label="Main"]')!.getBoundingClientRect();
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      proofReach: Math.max(proof.right, window.innerWidth - proof.left),
      tabsBottom: tabs.bottom,
    };
  });

it.each(['en', 'fa'] as const)('keeps the screenshot mission within 390, 360 and 320 px, in %s', async (language) => {
  // the best-paid Manual mission, asking for all three kinds of proof
  const story = (await MissionModel.findOneAndUpdate(
    { verifyType: 'manual', proof: 'image' },
    { $set: { proof: ['link', 'text', 'image'] } },
    { new: true },
  ).lean())!;
  const { page, telegramId } = await product.openNewPlayer('/', { language, firstName: 'Narrow' });
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  // the ⭐ missions come before every other one: this player has done them
  await finishStarMissions(telegramId);

  await page.goto(`${product.base}/categories/${String(story.category)}/missions/${String(story._id)}/get`);
  await page.getByRole('button', { name: language === 'en' ? 'Open' : 'باز کردن' }).click();
  await page.locator('fieldset.proof input[type="file"]').waitFor();
  for (const width of [390, 360, 320]) {
    await page.setViewportSize({ width, height: 740 });
    const { overflow, proofReach, tabsBottom } = await measure(page);
    expect({ width, overflow }).toEqual({ width, overflow: 0 });
    expect(proofReach).toBeLessThanOrEqual(width);
    expect(tabsBottom).toBeLessThanOrEqual(740);
    await shot(page, `player-proof-${width}-${language}`);
  }
  await page.close();
});

/** How far the page reaches past the screen's right edge, and how far the mining tiles reach past their card. */
const tilesFit = (page: Page) =>
  page.evaluate(() => {
    const card = document.querySelector('section.mining')!.getBoundingClientRect();
    const tiles = Array.from(document.querySelectorAll('section.mining .figure')).map((tile) => tile.getBoundingClientRect());
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      tilesOutside: tiles.filter((tile) => tile.left < card.left - 0.5 || tile.right > card.right + 0.5).length,
      tiles: tiles.length,
    };
  });

it.each(['en', 'fa'] as const)(
  'keeps the running mining card and Currency with stakes within 390, 360 and 320 px, in %s',
  async (language) => {
    const { page, telegramId } = await product.openNewPlayer('/', { language, firstName: 'Tiles' });
    // signed in once the mining card can be started
    const start = page.getByRole('button', { name: language === 'en' ? 'Start' : 'شروع' });
    await start.waitFor();
    // the banners carry words: a Persian player sees the Persian pictures
    const banner = await page.locator('.covers img').first().getAttribute('src');
    expect(banner).toMatch(language === 'fa' ? /cover-welcome-fa\.svg$/ : /cover-welcome\.svg$/);
    const player = (await UserModel.findOne({ telegramId }, { _id: 1 }).lean())!;
    // coins, a part of them locked in a stake
    const gift = (await GiftCoinModel.findOne({ symbol: 'GIFT' }, { _id: 1 }).lean())!;
    const offer = (await StakingCoinModel.findOne({ coin: gift._id, enabled: true }).lean())!;
    await postEntry({
      userId: player._id,
      coinId: gift._id,
      amount: toMicros('123456.789'),
      reason: 'gift',
      idempotencyKey: `narrow:${telegramId}`,
    });
    const duration = Object.keys(offer.profits ?? {}).find((key) => (offer.profits as Record<string, string>)[key])!;
    await stake(
      player._id,
      { stakingCoinId: String(offer._id), amount: '100000', duration, idempotencyKey: `narrow-stake:${telegramId}` },
      new Date(),
    );

    await start.click();
    await page.getByTestId('mined-so-far').waitFor();
    for (const width of [390, 360, 320]) {
      await page.setViewportSize({ width, height: 740 });
      expect({ width, ...(await tilesFit(page)) }).toEqual({ width, overflow: 0, tilesOutside: 0, tiles: 3 });
      await page.locator('section.mining').screenshot({ path: screenshotPath(`player-mining-${width}-${language}`) });
    }

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: language === 'en' ? 'Currency' : 'ارزها' })
      .click();
    const locked = page.getByTestId('in-stakes');
    await expect(locked.textContent()).resolves.toMatch(
      language === 'en' ? /100,000 GIFT in stakes · total 123,456\.789 GIFT/ : /در استیک/,
    );
    for (const width of [390, 360, 320]) {
      await page.setViewportSize({ width, height: 740 });
      expect({ width, overflow: await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) }).toEqual({
        width,
        overflow: 0,
      });
      await shot(page, `player-currency-${width}-${language}`);
    }
    await page.close();
  },
);

/** WCAG's contrast ratio of two CSS colours as Chromium computes them (rgb(…)). */
function contrast(foreground: string, background: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = css
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

it.each(['en', 'fa'] as const)(
  'in the light theme, reads "View transaction" at AA contrast, and cuts a long friend name before their join date, in %s',
  async (language) => {
    const { page, telegramId } = await product.openNewPlayer('/', { language, firstName: 'Light' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().waitFor();
    await page.getByRole('button', { name: language === 'en' ? 'Start' : 'شروع' }).waitFor();
    const player = (await UserModel.findOne({ telegramId }, { _id: 1 }).lean())!;
    // the light theme, chosen on this device (inside Telegram the account's choice gives way to Telegram's scheme)
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await UserModel.create({
      telegramId: telegramId + 1_000_000,
      name: '🎉 Alexandria Konstantinopoulou-Vanderbilt the Third of Many Names',
      username: 'a_very_long_username_for_this_friend',
      referralCode: `long${telegramId}`,
      referrer: player._id,
    });
    const gift = (await GiftCoinModel.findOne({ symbol: 'GIFT' }, { _id: 1 }).lean())!;
    await WithdrawalModel.create({
      user: player._id,
      coin: gift._id,
      amount: Number(toMicros('150')),
      address: 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG',
      status: 'done',
      txHash: 'a'.repeat(64),
      processedAt: new Date(),
      idempotencyKey: `narrow-done:${telegramId}`,
    });

    for (const width of [390, 360, 320]) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto(`${product.base}/profile/withdraw`);
      const link = page.getByRole('link', { name: language === 'en' ? 'View transaction' : 'مشاهدهٔ تراکنش' });
      const [color, background] = await link.evaluate((a) => {
        const row = a.closest('li')!;
        return [getComputedStyle(a).color, getComputedStyle(row).backgroundColor];
      });
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      expect(contrast(color, background)).toBeGreaterThanOrEqual(4.5);

      await page.goto(`${product.base}/invite`);
      const friend = page.locator('li.friend').first();
      await friend.waitFor();
      const { nameEdge, dateEdge, overflow } = await friend.evaluate((row) => {
        const name = row.querySelector('.grow .title')!.getBoundingClientRect();
        const date = row.querySelector(':scope > .muted')!.getBoundingClientRect();
        const rtl = getComputedStyle(row).direction === 'rtl';
        // the gap between the name's end and the date's start, whichever side the language reads from
        return {
          nameEdge: rtl ? -name.left : name.right,
          dateEdge: rtl ? -date.right : date.left,
          overflow: document.documentElement.scrollWidth - innerWidth,
        };
      });
      expect({ width, overflow, nameBeforeDate: nameEdge <= dateEdge }).toEqual({ width, overflow: 0, nameBeforeDate: true });
      await shot(page, `player-invite-long-name-${width}-${language}`);
    }
    await page.close();
  },
);
