// A Lighthouse mobile run (simulated slow 4G and a mid-range phone) of the served home, on Debian's Chromium.
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
try {
  const result = await lighthouse(`${product.base}/`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    formFactor: 'mobile',
  });
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError || categories.performance.score === null) {
    const reason = result.lhr.runtimeError?.message ?? audits['first-contentful-paint'].errorMessage ?? 'no score';
    throw new Error(`Lighthouse could not measure the page (${reason}); run it again on a less busy machine`);
  }
  const score = (category) => Math.round(category.score * 100);
  console.log(`Lighthouse ${result.lhr.lighthouseVersion}, mobile, ${product.base}/`);
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
  const failing = Object.values(audits).filter(
    (audit) =>
      categories.accessibility.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0) && audit.score !== null && audit.score < 1,
  );
  for (const audit of failing) console.log(`  accessibility issue: ${audit.title}`);
} finally {
  await chrome.kill();
  rmSync(profile, { recursive: true, force: true });
  await product.stop();
}
