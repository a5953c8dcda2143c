// One fixture for every browser test file: the product on the file's database (built front ends, tRPC, REST), a real
// Chromium, and the ways in the tests share: an operator signed in to the console, a player launched from Telegram.
//
//   const product = useProduct({ demo: true, telegram: true, operators: [{ username: 'reviewer', permissions: ['*'] }] });
//   it('…', async () => {
//     const page = await product.signInOperator('reviewer');
//     const { page: app } = await product.openNewPlayer('/');
//   });
import bcrypt from 'bcryptjs';
import type { Page } from 'playwright-core';
import type { Permission } from '@gift/shared';
import type { Env } from '../server/src/env';
import { AccountModel } from '../server/src/modules/accounts/account.model';
import { BotRuntime } from '../server/src/modules/bot/botRuntime';
import { seedDemoData } from '../server/src/modules/demo/demo.service';
import { MissionModel, UserMissionModel } from '../server/src/modules/missions/mission.models';
import { UserModel } from '../server/src/modules/users/user.model';
import { silentLogger, TEST_BOT_TOKEN } from '../server/test/helpers';
import type { LaunchToSign } from '../server/test/telegram';
import {
  DESKTOP,
  PHONE,
  launchBrowser,
  recordTelegramBridge,
  startProductServer,
  telegramLaunchUrl,
  type ProductServer,
  type TestBrowser,
} from './support';

/** The password of every operator the fixture creates. */
const OPERATOR_PASSWORD = 'a long operator password';

type Viewport = { width: number; height: number };
type Closable = { close(): Promise<unknown> };
type TelegramUser = LaunchToSign['user'];
/** How Telegram launches the app; `recordTelegram`: inside a recording webview (support.ts's `recordTelegramBridge`). */
type LaunchOptions = Parameters<typeof telegramLaunchUrl>[4] & { recordTelegram?: boolean };

interface ProductOptions<S> {
  /** An outside service's stand-in (Telegram's Bot API, TON), started before everything else and closed last. */
  standIn?: () => Promise<S>;
  /** The demo's data (coins, categories, missions, players), as `npm start` seeds it. */
  demo?: boolean;
  /** Console accounts, each signing in with OPERATOR_PASSWORD. */
  operators?: Array<{ username: string; permissions: Permission[]; telegramId?: number }>;
  /** The file's own data, written after the demo and the operators, before the server starts. */
  before?: () => Promise<unknown>;
  /** The product has its bot (the test bot's token): players open it from Telegram with launch data it signed. */
  telegram?: boolean;
  /** More server settings (they may name what the stand-in started). */
  env?: Record<string, string> | ((standIn: S) => Record<string, string>);
}

interface SignInOptions {
  viewport?: Viewport;
  /** Signs out whoever this browser profile holds first (the file's tests share it), and forgets its language. */
  signOutFirst?: boolean;
  /** Chooses Persian on the sign-in page before signing in. */
  persian?: boolean;
  /** A browser profile of the operator's own, as a second operator at another desk has (nothing to sign out there). */
  ownBrowser?: boolean;
}

interface Product<S> {
  /** Where the product listens, e.g. `http://127.0.0.1:41234`. */
  readonly base: string;
  readonly env: Env;
  /** The file's Chromium: one profile, shared by its tests. */
  readonly browser: TestBrowser;
  readonly standIn: S;
  /** Script errors any page of the file's browsers raised. */
  readonly pageErrors: string[];
  /** Console labels shown without a translation, on any page of the file's browsers. */
  readonly missingTranslations: string[];
  openPage(viewport?: Viewport): Promise<Page>;
  /** A new tab that remembers nothing of an earlier player or operator (language, theme, launch, session). */
  freshPage(viewport?: Viewport): Promise<Page>;
  /** A fresh tab on the console's sign-in form, reached as a signed-out operator reaches it (from /admin). */
  openSignedOutConsole(viewport?: Viewport): Promise<Page>;
  /** Types a name and a password into the console's sign-in form and sends it. */
  submitSignIn(page: Page, username: string, password?: string): Promise<void>;
  /** Signs an operator in through the console's form, as they do, and waits for the dashboard. */
  signInOperator(username: string, options?: SignInOptions): Promise<Page>;
  /** One console tab for the tests of the describe block it is called in: signed in (signed out first) before them, closed after. */
  useOperatorTab(username: string): Page;
  /** The address Telegram opens the app at, with the launch signed by the test bot's token. */
  telegramUrl(path: string, user: TelegramUser, launch?: LaunchOptions): string;
  /** A player opening the app at `path` from Telegram, on a fresh phone tab; windows the app opens are closed (offline). */
  openPlayer(path: string, user: TelegramUser, launch?: LaunchOptions): Promise<Page>;
  /** A Telegram id no player of this file had before. */
  newTelegramId(): number;
  /** A player Telegram never showed the app before (a new id each call), opening it at `path`. */
  openNewPlayer(
    path: string,
    who?: { language?: string; firstName?: string; launch?: LaunchOptions },
  ): Promise<{ page: Page; telegramId: number }>;
}

async function createOperators(operators: NonNullable<ProductOptions<unknown>['operators']>) {
  const passwordHash = await bcrypt.hash(OPERATOR_PASSWORD, 8);
  await AccountModel.create(operators.map((operator) => ({ ...operator, passwordHash })));
}

/**
 * Starts the product and a Chromium in this test file's beforeAll and closes them in its afterAll. The returned object
 * reads them once started; a file's own beforeAll, written after this call, runs after them.
 */
export function useProduct<S extends Closable | undefined = undefined>(options: ProductOptions<S> = {}): Product<S> {
  let standIn: S | undefined;
  let server: ProductServer | undefined;
  const browsers: TestBrowser[] = [];
  let nextTelegramId = 7_000_001;
  const started = <T>(thing: T | undefined): T => {
    if (thing === undefined) throw new Error('the product is not started yet: read it inside a test or a hook');
    return thing;
  };

  // a Chromium the fixture closes at the end and whose pages' errors it reports
  const addBrowser = async () => {
    const browser = await launchBrowser();
    browsers.push(browser);
    return browser;
  };

  beforeAll(async () => {
    standIn = await options.standIn?.();
    if (options.demo) await seedDemoData(silentLogger);
    if (options.operators) await createOperators(options.operators);
    await options.before?.();
    const env = typeof options.env === 'function' ? options.env(standIn as S) : options.env;
    server = await startProductServer({ ...(options.telegram ? { TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN } : {}), ...env });
    await addBrowser();
  });

  // each may be missing when the beforeAll failed half way; the last opened first
  afterAll(async () => {
    for (const browser of browsers.reverse()) await browser.close();
    await server?.close();
    await standIn?.close();
  });

  const product: Product<S> = {
    get base() {
      return started(server).base;
    },
    get env() {
      return started(server).env;
    },
    get browser() {
      return started(browsers[0]);
    },
    get standIn() {
      return started(standIn);
    },
    get pageErrors() {
      return browsers.flatMap((browser) => browser.pageErrors);
    },
    get missingTranslations() {
      return browsers.flatMap((browser) => browser.missingTranslations);
    },
    openPage: (viewport) => product.browser.openPage(viewport),
    async freshPage(viewport = PHONE) {
      const page = await product.openPage(viewport);
      await page.goto(`${product.base}/healthz`);
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      return page;
    },
    async openSignedOutConsole(viewport = DESKTOP) {
      const page = await product.freshPage(viewport);
      await page.goto(`${product.base}/admin`);
      await page.waitForURL(/\/admin\/login$/);
      // the form and its language menu drawn
      await page.getByRole('button', { name: 'English' }).waitFor();
      await page.locator('button[type="submit"]').waitFor();
      return page;
    },
    async submitSignIn(page, username, password = OPERATOR_PASSWORD) {
      await page.locator('input[name="username"]').fill(username);
      await page.locator('input[name="password"]').fill(password);
      await page.locator('button[type="submit"]').click();
    },
    async signInOperator(username, { viewport = DESKTOP, signOutFirst, persian, ownBrowser }: SignInOptions = {}) {
      let page: Page;
      if (signOutFirst) page = await product.openSignedOutConsole(viewport);
      else {
        page = await (ownBrowser ? await addBrowser() : product.browser).openPage(viewport);
        await page.goto(`${product.base}/admin/login`);
      }
      if (persian) {
        await page.getByRole('button', { name: 'English' }).click();
        await page.getByRole('menuitem', { name: 'فارسی' }).click();
      }
      await product.submitSignIn(page, username);
      await page.waitForURL(`${product.base}/admin/`);
      return page;
    },
    useOperatorTab(username) {
      let tab: Page | undefined;
      beforeAll(async () => {
        tab = await product.signInOperator(username, { signOutFirst: true });
      });
      afterAll(() => tab?.close());
      // the tab opens in the beforeAll: the tests reach it through this stand-in, which forwards to it
      return new Proxy({} as Page, {
        get(_, key) {
          const page = started(tab);
          const value: unknown = Reflect.get(page, key);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(page) : value;
        },
      });
    },
    telegramUrl: (path, user, launch) => telegramLaunchUrl(product.base, path, { user }, TEST_BOT_TOKEN, launch),
    async openPlayer(path, user, launch) {
      const page = await product.freshPage(PHONE);
      // Go opens mission links in a new window; offline there is nothing to load there
      page.on('popup', (popup) => void popup.close());
      if (launch?.recordTelegram) await recordTelegramBridge(page);
      await page.goto(product.telegramUrl(path, user, launch));
      return page;
    },
    newTelegramId: () => nextTelegramId++,
    async openNewPlayer(
      path,
      { language = 'en', firstName, launch }: { language?: string; firstName?: string; launch?: LaunchOptions } = {},
    ) {
      const telegramId = product.newTelegramId();
      const user = { id: telegramId, first_name: firstName ?? `Player ${telegramId}`, language_code: language };
      return { page: await product.openPlayer(path, user, launch), telegramId };
    },
  };
  return product;
}

/** The ⭐ missions done for this player, so a test can reach the missions behind the ⭐ gate. */
export async function finishStarMissions(telegramId: number): Promise<void> {
  const user = await UserModel.findOne({ telegramId }).lean();
  if (!user) throw new Error(`player ${telegramId} has not launched the app`);
  const stars = await MissionModel.find({ mustDone: true, enabled: true }).lean();
  const now = new Date();
  await UserMissionModel.insertMany(
    stars.map((m) => ({
      user: user._id,
      mission: m._id,
      category: m.category,
      coin: m.coin,
      reward: m.reward,
      status: 'done',
      startedAt: now,
      claimedAt: now,
      doneAt: now,
    })),
  );
}

/**
 * The bot as the server runs it (its runtime: the notification sender making the buttons' links, broadcasts), started on the
 * product's settings before the file's tests and stopped after them.
 */
export function useBotRuntime(product: { readonly env: Env }): void {
  let bot: BotRuntime | undefined;
  beforeAll(async () => {
    bot = new BotRuntime({ env: product.env, logger: silentLogger });
    await bot.start();
  });
  afterAll(() => bot?.stop().catch(() => undefined));
}
