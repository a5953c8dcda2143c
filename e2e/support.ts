// The browser tests' building blocks: the product served on a random loopback port, a real Chromium, screenshots, Telegram
// launches. A test file gets them through the fixture (fixture.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createApp } from '../server/src/app';
import { loadEnv, type Env } from '../server/src/env';
import { silentLogger } from '../server/test/helpers';
import { signInitData, type LaunchToSign } from '../server/test/telegram';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.mjs';

/** Where every browser test writes its screenshots (docs/development.md names this folder). */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? path.resolve(__dirname, '..', 'screenshots');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export interface ProductServer {
  env: Env;
  base: string;
  close(): Promise<void>;
}

/** The product (built front ends, tRPC, REST) on a random loopback port, against this test file's database. */
export async function startProductServer(overrides: Record<string, string> = {}): Promise<ProductServer> {
  const env = loadEnv({ NODE_ENV: 'development', LOG_LEVEL: 'silent', JWT_SECRET: 'e2e-secret-'.padEnd(40, 'x'), ...overrides });
  const server: Server = createApp({ env, logger: silentLogger }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { env, base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface TestBrowser {
  context: BrowserContext;
  /** Script errors any page raised; a test file ends by expecting none. */
  pageErrors: string[];
  /** Console labels shown without a translation, as the console's i18n provider reports them. */
  missingTranslations: string[];
  openPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** A real headless Chromium with a fresh profile; fails with the install command when it is missing. */
export async function launchBrowser(options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run "sudo apt-get install -y chromium" or set CHROMIUM_PATH.`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const profileDir = mkdtempSync(path.join(tmpdir(), 'gift-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: PHONE,
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  // generous: CI machines run other suites at the same time
  context.setDefaultTimeout(60_000);
  const pageErrors: string[] = [];
  const missingTranslations: string[] = [];
  return {
    context,
    pageErrors,
    missingTranslations,
    async openPage(viewport = PHONE) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      // the console's i18n provider says so when a label has no translation (admin/src/i18n/i18nProvider.ts)
      page.on('console', (message) => {
        if (message.text().startsWith('Missing console translation:')) missingTranslations.push(message.text());
      });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/**
 * The page fits the viewport's width (no sideways scrolling), once the layout answered the new width: right after a resize
 * the console may still show its desktop layout for a frame or two (react-admin switches to the phone layout on a media
 * query), so it is given up to 5 s to settle before the widths are read.
 */
export async function fits(page: Page) {
  const limit = page.viewportSize()!.width;
  await page.waitForFunction((edge) => document.documentElement.scrollWidth <= edge, limit, { timeout: 5000 }).catch(() => undefined);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  // the elements that reach past the edge, named, when the page is too wide
  const past = await page.evaluate(
    (edge) =>
      Array.from(document.querySelectorAll('body *'))
        .filter(
          (element) =>
            element.getBoundingClientRect().right > edge + 1 &&
            !Array.from(element.children).some((child) => child.getBoundingClientRect().right > edge + 1),
        )
        .slice(0, 8)
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}.${Array.from(element.classList).slice(0, 2).join('.')} ${Math.round(element.getBoundingClientRect().right)} ${(element.textContent ?? '').slice(0, 40)}`,
        ),
    limit,
  );
  expect({ width: Math.min(width, limit), past: width > limit ? past : [] }).toEqual({ width, past: [] });
}

export const screenshotPath = (name: string) => path.join(SCREENSHOTS, `${name}.png`);
export const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(name), fullPage: true });

/**
 * The address Telegram opens a mini app at: the page, then the launch in the URL hash
 * (`tgWebAppData` signed with real HMAC by the test, as Telegram signs it with the bot token).
 */
export function telegramLaunchUrl(
  base: string,
  pagePath: string,
  launch: LaunchToSign,
  botToken?: string,
  { version = '8.0', themeParams }: { version?: string; themeParams?: Record<string, string> } = {},
): string {
  const hash = new URLSearchParams({
    tgWebAppData: signInitData(launch, botToken),
    tgWebAppVersion: version,
    tgWebAppPlatform: 'tdesktop',
  });
  if (themeParams) hash.set('tgWebAppThemeParams', JSON.stringify(themeParams));
  return `${base}${pagePath}#${hash.toString()}`;
}

/** What a page inside Telegram's webview posted to Telegram (recorded by `recordTelegramBridge`), oldest first. */
export type TelegramWebview = Window & {
  e2eSent: Array<[string, Record<string, unknown>]>;
  Telegram: { WebView: { receiveEvent(type: string, data: unknown): void } };
};

/**
 * From the page's next load on, the app runs inside a recording Telegram webview: what it posts to Telegram
 * (`web_app_ready`, `web_app_open_invoice`, the header colour…) lands in `window.e2eSent`, read by `sentToTelegram`.
 */
export async function recordTelegramBridge(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const webview = window as unknown as TelegramWebview & { TelegramWebviewProxy: unknown };
    webview.e2eSent = [];
    webview.TelegramWebviewProxy = { postEvent: (type: string, data: string) => webview.e2eSent.push([type, JSON.parse(data)]) };
  });
}

/** The events of `type` the app posted to the recording Telegram so far. */
export const sentToTelegram = (page: Page, type: string) =>
  page.evaluate((wanted) => (window as unknown as TelegramWebview).e2eSent.filter(([sent]) => sent === wanted), type);

/** Telegram's own palettes, as its apps send them (tgWebAppThemeParams at launch, theme_changed afterwards). */
export const TELEGRAM_PALETTES = {
  dark: { bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', button_color: '#5288c1' },
  light: { bg_color: '#ffffff', text_color: '#000000', hint_color: '#999999', button_color: '#2481cc' },
} as const;
export type Scheme = keyof typeof TELEGRAM_PALETTES;
/** The app's own backgrounds (client/src/ui/theme.tsx's PALETTE), which it asks Telegram to paint around it. */
const APP_BACKGROUNDS = { dark: '#191919', light: '#edf2eb' } as const;

/** The player switches Telegram to `scheme`: Telegram says so (theme_changed) and the app follows, live. */
async function switchTelegramScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.evaluate(
    (themeParams) => (window as unknown as TelegramWebview).Telegram.WebView.receiveEvent('theme_changed', { theme_params: themeParams }),
    TELEGRAM_PALETTES[scheme],
  );
  await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, scheme, { timeout: 5000 });
  // inside a recording webview: the app painted Telegram's background in its own colour of that scheme (client's PALETTE)
  if (await page.evaluate(() => Array.isArray((window as unknown as TelegramWebview).e2eSent))) {
    const painted = await sentToTelegram(page, 'web_app_set_background_color');
    expect(painted.at(-1)?.[1]).toEqual({ color: APP_BACKGROUNDS[scheme] });
  }
}

/**
 * What the player's page shows that no translation wrote: an i18n key left as it is (`help.title`), and in Persian any Latin
 * digit or Latin word but the `names` given (players', coins'). Read from the text on screen.
 */
async function untranslated(page: Page, language: 'en' | 'fa', names: string[] = []): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const keys = text.match(/\b[a-z][a-zA-Z]+\.[a-z][a-zA-Z]+(\.[a-zA-Z]+)*\b/g) ?? [];
  if (language === 'en') return keys;
  const named = names.reduce((rest, name) => rest.split(name).join(' '), text);
  return [...keys, ...(named.match(/[0-9]+|[A-Za-z][A-Za-z'’]*/g) ?? [])];
}

/**
 * Text on the page that reads below WCAG AA against what is behind it (4.5:1; 3:1 for large text), each as its words, its
 * colours and its ratio. The background is the nearest ancestor's opaque colour; disabled controls are left out, as WCAG does.
 */
function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) =>
      [r!, g!, b!]
        .map((c) => c / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    const behind = (element: Element | null): number[] => {
      for (let at = element; at; at = at.parentElement) {
        const colour = channels(getComputedStyle(at).backgroundColor);
        if (colour.length === 3 || (colour[3] ?? 0) >= 0.9) return colour;
      }
      return [255, 255, 255];
    };
    const poor: string[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const words = Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (!words || box.width === 0 || style.visibility === 'hidden' || element.closest(':disabled, [aria-disabled="true"]')) continue;
      const [fore, back] = [luminance(channels(style.color)), luminance(behind(element))];
      const ratio = (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        poor.push(`${words.slice(0, 40)}: ${style.color} on ${behind(element).join(',')} = ${ratio.toFixed(2)}`);
    }
    return poor;
  });
}

/**
 * A player's page looked at every way issue 35 asks: in Telegram's dark and light schemes at 390 px, and at the `narrow`
 * widths given (each in the scheme given), each fitting the screen, translated, readable in light, and shot as
 * `<name>-<language>-<scheme>-<width>`. Ends in the scheme it started with, at 390 px.
 */
export async function lookEveryWay(
  page: Page,
  name: string,
  language: 'en' | 'fa',
  { narrow = [], names = [] }: { narrow?: Array<[Scheme, number]>; names?: string[] } = {},
): Promise<void> {
  const start = (await page.evaluate(() => document.documentElement.dataset.theme)) as Scheme;
  const other: Scheme = start === 'dark' ? 'light' : 'dark';
  const views: Array<[Scheme, number]> = [start, other].flatMap((scheme) => [
    [scheme, 390] as [Scheme, number],
    ...narrow.filter(([wanted]) => wanted === scheme),
  ]);
  for (const [scheme, width] of views) {
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== scheme) await switchTelegramScheme(page, scheme);
    await page.setViewportSize({ width, height: 844 });
    const view = `${scheme} ${width}`;
    await fits(page);
    expect({ view, untranslated: await untranslated(page, language, names) }).toEqual({ view, untranslated: [] });
    expect({ view, lowContrast: await lowContrast(page) }).toEqual({ view, lowContrast: [] });
    await shot(page, `${name}-${language}-${scheme}-${width}`);
  }
  await switchTelegramScheme(page, start);
  await page.setViewportSize({ width: 390, height: 844 });
}
