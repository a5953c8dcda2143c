// The player app's first screen stays light: the JavaScript a Telegram launch at home loads before home shows, in English and
// in Persian (each loads its own language's texts only), within the budget. Sizes of built files: the same on every run.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startBotApiStandIn } from '../server/test/botApiStandIn';
import { TEST_BOT_TOKEN } from '../server/test/helpers';
import { FIRST_SCREEN_BUDGET_KB, firstScreenScripts } from './firstScreen.mjs';
import { useProduct } from './fixture';
import { PHONE } from './support';

jest.setTimeout(240_000);

// launched from Telegram (the test bot signs the launch); what the bot sends goes to the Bot API stand-in
const standIn = () => startBotApiStandIn(TEST_BOT_TOKEN);
const product = useProduct({ demo: true, telegram: true, standIn, env: (bot) => ({ TELEGRAM_API_ROOT: bot.apiRoot }) });

describe.each([
  ['en', 'Categories', /\/assets\/en-[\w-]+\.js$/, /\/assets\/fa-/],
  ['fa', 'دسته‌بندی‌ها', /\/assets\/fa-[\w-]+\.js$/, /\/assets\/en-/],
] as const)('a Telegram launch at home in %s', (language, categories, ownTexts, otherTexts) => {
  it(`loads at most ${FIRST_SCREEN_BUDGET_KB} kB of JavaScript (gzip) before home shows, and not the other language`, async () => {
    const page = await product.freshPage(PHONE);
    const url = product.telegramUrl('/', { id: product.newTelegramId(), language_code: language });
    const scripts = await firstScreenScripts(page, url, () => page.getByText(categories, { exact: true }).first().waitFor());
    const files = scripts.map((script) => script.pathname);
    expect(files.filter((file) => ownTexts.test(file))).toHaveLength(1);
    expect(files.filter((file) => otherTexts.test(file))).toEqual([]);
    // nothing the first screen does not show: no TON Connect, no later page, no service worker code
    expect(files.filter((file) => /\/(wallet|workbox[\w.]*|[A-Za-z]+Page)-[\w-]+\.js$/.test(file))).toEqual([]);
    const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
    const listing = scripts.map((script) => `${script.pathname} ${kb(script.gzip)}`).join('\n');
    // printed on every run, so the room left under the budget is seen before it is gone
    console.log(`${language} first screen: ${total} bytes gzip (${FIRST_SCREEN_BUDGET_KB * 1024 - total} to spare)\n${listing}`);
    // over the budget, the failure lists what the first screen loaded (npm run bundle-report tells the same)
    expect(total <= FIRST_SCREEN_BUDGET_KB * 1024 ? 'within' : `${kb(total)}, over the budget:\n${listing}`).toBe('within');
    await page.close();
  });
});

// The build's version (the build time, without BUILD_VERSION or GIT_COMMIT) is named in index.html, never compiled into a
// script: there it changed that chunk's hash and, through the imports, every chunk's, so each build of the same sources
// moved the first screen's gzip size by a few bytes (CI's fresh build failed the budget above at random) and every release
// made players download the whole app again.
it('keeps the build version out of every script, so the same sources build the same files', () => {
  const dist = path.resolve(__dirname, '..', 'client', 'dist');
  const { version } = JSON.parse(readFileSync(path.join(dist, 'builds', 'latest.json'), 'utf8')) as { version: string };
  expect(readFileSync(path.join(dist, 'index.html'), 'utf8')).toContain(`<meta name="build-version" content="${version}">`);
  const scripts = readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  expect(scripts.filter((file) => readFileSync(path.join(dist, 'assets', file), 'utf8').includes(version))).toEqual([]);
});
