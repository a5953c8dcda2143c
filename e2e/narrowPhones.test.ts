// The Manual mission's proof form on narrow phones (390, 360 and 320 px wide), in a real Chromium: a fieldset keeps
// `min-width: min-content` unless told otherwise, and that once held the whole page 373 px wide.
import type { Page } from 'playwright-core';
import { MissionModel } from '../server/src/modules/missions/mission.models';
import { finishStarMissions, useProduct } from './fixture';
import { shot } from './support';

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
