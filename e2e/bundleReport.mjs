// Prints every built file of the two front ends with its raw and gzip size, and the totals per kind; then the JavaScript the
// player app's first screen loads, file by file, against its budget (exits 1 above it, as e2e/firstScreen.test.ts fails).
// Run after `npm run build`:  npm run bundle-report
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

let missing = false;
for (const app of ['client', 'admin']) {
  const dist = path.join(root, app, 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    console.log(`${app}: not built (run "npm run build" first)`);
    missing = true;
    continue;
  }
  const rows = filesUnder(dist).map((file) => {
    const bytes = readFileSync(file);
    return {
      file: path.relative(dist, file),
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      kind: path.extname(file).slice(1) || 'other',
    };
  });
  rows.sort((a, b) => b.raw - a.raw);
  const width = Math.max(...rows.map((row) => row.file.length), 10);
  console.log(`\n${app}/dist`);
  console.log(`  ${'file'.padEnd(width)}  ${'raw'.padStart(10)}  ${'gzip'.padStart(10)}`);
  for (const row of rows) console.log(`  ${row.file.padEnd(width)}  ${kb(row.raw).padStart(10)}  ${kb(row.gzip).padStart(10)}`);
  const kinds = new Map();
  for (const row of rows) {
    const total = kinds.get(row.kind) ?? { raw: 0, gzip: 0 };
    kinds.set(row.kind, { raw: total.raw + row.raw, gzip: total.gzip + row.gzip });
  }
  for (const [kind, total] of [...kinds].sort()) {
    console.log(`  ${`total ${kind}`.padEnd(width)}  ${kb(total.raw).padStart(10)}  ${kb(total.gzip).padStart(10)}`);
  }
}
process.exitCode = missing ? 1 : 0;

// What a phone downloads for the first screen: the served home, opened in Chromium, every script it asks for until home
// shows, weighed as its built file gzipped (deterministic); then what follows once home is on screen, for information.
if (!missing) {
  const { chromium } = await import('playwright-core');
  const { startServedProduct } = await import('./servedProduct.mjs');
  const { builtGzipBytes, FIRST_SCREEN_BUDGET_KB, firstScreenScripts } = await import('./firstScreen.mjs');
  const product = await startServedProduct();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    const later = [];
    const scripts = await firstScreenScripts(page, `${product.base}/`, async () => {
      await page.getByText('Categories').first().waitFor();
      page.on('request', (request) => {
        if (request.resourceType() === 'script') later.push(new URL(request.url()).pathname);
      });
    });
    await page.waitForLoadState('networkidle');
    const row = (file, gzip) => `  ${file.padEnd(48)}  ${kb(gzip).padStart(10)}`;
    console.log(`\nfirst screen (${product.base}/, Chromium, 390×844, until home shows): JavaScript loaded`);
    console.log(`  ${'file'.padEnd(48)}  ${'gzip'.padStart(10)}`);
    for (const script of scripts) console.log(row(script.pathname, script.gzip));
    const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
    const over = total > FIRST_SCREEN_BUDGET_KB * 1024;
    console.log(`${row('total first-screen JavaScript', total)}  (budget: ${FIRST_SCREEN_BUDGET_KB} kB gzip${over ? ': OVER' : ''})`);
    if (later.length) {
      console.log('  after home shows (not counted):');
      for (const file of later) console.log(row(`  ${file}`, builtGzipBytes(file)));
    }
    if (over) process.exitCode = 1;
  } finally {
    await browser.close();
    await product.stop();
  }
}
