// The player's screens on narrow phones (390, 360 and 320 px wide), in a real Chromium: the Manual mission's proof form
// (a fieldset keeps `min-width: min-content` unless told otherwise, and that once held the whole page 373 px wide), the
// mining card's tiles and Currency with coins locked in stakes.
import type { Page } from 'playwright-core';
import { toMicros } from '@gift/shared';
import { GiftCoinModel } from '../server/src/modules/coins/giftCoin.model';
import { postEntry } from '../server/src/modules/ledger/ledger.service';
import { MissionModel } from '../server/src/modules/missions/mission.models';
import { StakingCoinModel } from '../server/src/modules/staking/staking.models';
import { stake } from '../server/src/modules/staking/staking.service';
import { UserModel } from '../server/src/modules/users/user.model';
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
