// The reminder switches on the player's Settings page (issue 35 item 2), in a real Chromium, in English and Persian, on a
// 390 px and a 320 px phone: each kind of the bot's reminders can be switched off, and stays off after a reload.
import type { Page } from 'playwright-core';
import { UserModel } from '../server/src/modules/users/user.model';
import { useProduct } from './fixture';
import { fits, shot } from './support';

jest.setTimeout(180_000);

const product = useProduct({ demo: true, telegram: true });

const LABELS = {
  en: {
    title: 'Reminders from the bot',
    kinds: ['Mining finished', 'Streak about to break', 'Stake unlocked', 'League prize won', 'Withdrawal paid'],
    switched: 'Mining finished',
  },
  fa: {
    title: 'یادآوری‌های ربات',
    kinds: ['پایان استخراج', 'زنجیره در خطر قطع شدن', 'آزاد شدن استیک', 'بردن جایزهٔ لیگ', 'پرداخت برداشت'],
    switched: 'آزاد شدن استیک',
  },
} as const;

/** The switches as the page shows them: each one's name and whether it is on. */
const switches = (page: Page) =>
  page
    .getByRole('switch')
    .evaluateAll((inputs) => inputs.map((input) => [input.closest('label')!.textContent, (input as HTMLInputElement).checked] as const));

async function switchedOff(telegramId: number): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const off = (await UserModel.findOne({ telegramId }, { reminders: 1 }).lean())?.reminders?.off ?? [];
    if (off.length) return off;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

it.each(['en', 'fa'] as const)('switches a kind of reminder off in Settings, at 390 and 320 px, in %s', async (language) => {
  const labels = LABELS[language];
  const { page, telegramId } = await product.openNewPlayer('/profile/settings', { language, firstName: 'Reminded' });
  await page.getByText(labels.title).waitFor();
  expect(await switches(page)).toEqual(labels.kinds.map((kind) => [kind, true]));

  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 740 });
    await fits(page);
    // every switch stays inside the screen, beside its whole label
    const reach = await page.getByRole('switch').evaluateAll((inputs) =>
      inputs.map((input) => {
        const box = input.getBoundingClientRect();
        return box.left >= 0 && box.right <= window.innerWidth;
      }),
    );
    expect(reach).toEqual(labels.kinds.map(() => true));
    await shot(page, `player-reminders-${width}-${language}`);
  }

  // shown off before the server answers: the call is held until the switch shows off (a time limit instead could run out on a
  // busy machine, whose page may take longer than any limit to draw the click)
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('user.switchReminder'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.getByRole('switch', { name: labels.switched }).click();
  await page.getByRole('switch', { name: labels.switched, checked: false }).waitFor();
  release();
  expect(await switchedOff(telegramId)).toEqual([language === 'en' ? 'mining-ready' : 'stake-unlocked']);
  await page.reload();
  await page.getByText(labels.title).waitFor();
  expect(await switches(page)).toEqual(labels.kinds.map((kind) => [kind, kind !== labels.switched]));
  await shot(page, `player-reminders-off-320-${language}`);
  expect(product.pageErrors).toEqual([]);
  await page.close();
});
