// What the player app's first screen costs in JavaScript: the scripts a page requests from opening the app until its first
// screen shows, each weighed as its built file gzipped (level 9), so the figure is the same on every run. Used by the bundle
// report (npm run bundle-report) and by the browser test that keeps the budget (e2e/firstScreen.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'client', 'dist');

/**
 * The most JavaScript, gzipped, the first screen may load (issue 35; see docs/player-app.md): it was 118,543 bytes in English
 * and 119,323 in Persian on 2026-11-28 (session 12): Persian has 3,557 bytes to spare. The figure is the same for every
 * build of the same sources (the build's version stays out of the scripts, client/vite.config.ts).
 */
export const FIRST_SCREEN_BUDGET_KB = 120;

/** The gzipped size of one built file of the player app, by the path it is served at. */
export function builtGzipBytes(pathname) {
  return gzipSync(readFileSync(path.join(dist, pathname)), { level: 9 }).length;
}

/**
 * Opens `url` in `page` and resolves, once `shown()` does and the app has marked its first screen complete (the
 * `first-screen` mark, client/src/lib/laterPages.ts), with the scripts the page fetched before that mark. What the app
 * fetches after it (the later pages' prefetch, the service worker's code) is not counted, however late the test itself
 * notices the screen: the page's own timeline decides, not the test's timing.
 */
export async function firstScreenScripts(page, url, shown) {
  await page.goto(url);
  await shown();
  await page.waitForFunction(() => performance.getEntriesByName('first-screen').length > 0, null, { timeout: 30_000 });
  const paths = await page.evaluate((origin) => {
    const [mark] = performance.getEntriesByName('first-screen');
    const documentScripts = [...globalThis.document.scripts].map((script) => script.src).filter(Boolean);
    const fetched = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < mark.startTime)
      .map((entry) => entry.name);
    return [...new Set([...documentScripts, ...fetched])]
      .map((address) => new URL(address))
      .filter((address) => address.origin === origin && address.pathname.endsWith('.js'))
      .map((address) => address.pathname);
  }, new URL(url).origin);
  return paths.map((pathname) => ({ pathname, gzip: builtGzipBytes(pathname) }));
}
