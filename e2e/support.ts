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
