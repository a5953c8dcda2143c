// What the player app's first screen costs in JavaScript: the scripts a page requests from opening the app until its first
// screen shows, each weighed as its built file gzipped (level 9), so the figure is the same on every run. Used by the bundle
// report (npm run bundle-report) and by the browser test that keeps the budget (e2e/firstScreen.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'client', 'dist');

/**
 * The most JavaScript, gzipped, the first screen may load (issue 35; see docs/player-app.md): it was 119.1 kB in English and
 * 119.8 in Persian on 2026-11-27.
 */
export const FIRST_SCREEN_BUDGET_KB = 120;

/** The gzipped size of one built file of the player app, by the path it is served at. */
export function builtGzipBytes(pathname) {
  return gzipSync(readFileSync(path.join(dist, pathname)), { level: 9 }).length;
}

/**
 * Opens `url` in `page` and resolves, once `shown()` does, with the scripts the page asked for until then (those fetched
 * after the first screen shows, such as the later pages' prefetch and the service worker's code, are not counted).
 */
export async function firstScreenScripts(page, url, shown) {
  const requested = [];
  const onRequest = (request) => {
    if (request.resourceType() !== 'script') return;
    const { origin, pathname } = new URL(request.url());
    if (origin === new URL(url).origin && !requested.some((script) => script.pathname === pathname)) requested.push({ pathname });
  };
  page.on('request', onRequest);
  try {
    await page.goto(url);
    await shown();
  } finally {
    page.off('request', onRequest);
  }
  return requested.map((script) => ({ ...script, gzip: builtGzipBytes(script.pathname) }));
}
