// Lighthouse runs of the served home on Debian's Chromium: its mobile profile (simulated slow 4G, a mid-range phone), then
// the slow connection of issue 19 (400 ms, 400 kbit/s).
// Run after `npm run build`:  npm run lighthouse   (CHROME_PATH picks another Chromium)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.mjs';
import { startServedProduct } from './servedProduct.mjs';

const chromePath = process.env.CHROME_PATH ?? CHROMIUM;
const product = await startServedProduct();
const profile = mkdtempSync(path.join(tmpdir(), 'gift-lighthouse-'));
const chrome = await chromeLauncher.launch({
  chromePath,
  userDataDir: profile,
  chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
});
/** Lighthouse's mobile profile, and the slow connection issue 19 names (400 ms round trips, 400 kbit/s). */
const PROFILES = [
  { name: 'mobile (slow 4G, 4x CPU)', aim: 2000, throttling: undefined },
  { name: 'slow (400 ms, 400 kbit/s, 4x CPU)', aim: 4000, throttling: { rttMs: 400, throughputKbps: 400, cpuSlowdownMultiplier: 4 } },
];
try {
  for (const profile of PROFILES) {
    const result = await lighthouse(
      `${product.base}/`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        formFactor: 'mobile',
      },
      profile.throttling
        ? { extends: 'lighthouse:default', settings: { throttlingMethod: 'simulate', throttling: profile.throttling } }
        : undefined,
    );
    const { categories, audits } = result.lhr;
    if (result.lhr.runtimeError || categories.performance.score === null) {
      const reason = result.lhr.runtimeError?.message ?? audits['first-contentful-paint'].errorMessage ?? 'no score';
      throw new Error(`Lighthouse could not measure the page (${reason}); run it again on a less busy machine`);
    }
    const score = (category) => Math.round(category.score * 100);
    console.log(`Lighthouse ${result.lhr.lighthouseVersion}, ${profile.name}, ${product.base}/`);
    console.log(`  performance     ${score(categories.performance)}   (aim: 90 or more)`);
    console.log(`  accessibility   ${score(categories.accessibility)}   (aim: 100)`);
    for (const id of [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
    ]) {
      console.log(`  ${audits[id].title.padEnd(26)} ${audits[id].displayValue}`);
    }
    // which element was the largest paint (the shell's cover, on a launch with covers)
    const lcpNode = audits['lcp-breakdown-insight']?.details?.items?.find((item) => item.type === 'node');
    if (lcpNode) console.log(`  largest paint              ${lcpNode.selector} (${lcpNode.nodeLabel})`);
    const lcp = audits['largest-contentful-paint'].numericValue;
    console.log(`  launch to home (LCP)       ${lcp <= profile.aim ? 'within' : 'OVER'} the aim of ${profile.aim / 1000} s`);
    const failing = Object.values(audits).filter(
      (audit) =>
        categories.accessibility.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0) && audit.score !== null && audit.score < 1,
    );
    for (const audit of failing) console.log(`  accessibility issue: ${audit.title}`);
  }
} finally {
  await chrome.kill();
  rmSync(profile, { recursive: true, force: true });
  await product.stop();
}
