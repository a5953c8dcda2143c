// Prints every built file of the two front ends with its raw and gzip size, and the totals per kind.
// Run after `npm run build`:  npm run bundle-report
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
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

/** The bytes the server sends for `url` to a browser that accepts gzip only. */
function servedGzipBytes(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

// What a phone downloads for the first screen: the served home, opened in Chromium, every script it loads as sent over the wire.
if (!missing) {
  const { chromium } = await import('playwright-core');
  const { startServedProduct } = await import('./servedProduct.mjs');
  const product = await startServedProduct();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    const scripts = [];
    page.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'script') return;
      const response = await request.response();
      const sizes = await request.sizes();
      scripts.push({
        url: new URL(request.url()).pathname,
        encoding: response?.headers()['content-encoding'] ?? 'none',
        wire: sizes.responseBodySize,
      });
    });
    await page.goto(`${product.base}/`, { waitUntil: 'networkidle' });
    await page.getByText('Categories').first().waitFor();
    for (const script of scripts) script.gzip = await servedGzipBytes(`${product.base}${script.url}`);
    console.log(`\nfirst screen as served (${product.base}/, Chromium, 390×844): JavaScript loaded`);
    console.log(`  ${'file'.padEnd(48)}  ${'sent'.padStart(10)}  ${'as gzip'.padStart(10)}`);
    for (const script of scripts)
      console.log(`  ${script.url.padEnd(48)}  ${`${kb(script.wire)} ${script.encoding}`.padStart(10)}  ${kb(script.gzip).padStart(10)}`);
    const sum = (key) => scripts.reduce((total, script) => total + script[key], 0);
    console.log(
      `  ${'total first-screen JavaScript'.padEnd(48)}  ${kb(sum('wire')).padStart(10)}  ${kb(sum('gzip')).padStart(10)}  (aim: 150 kB gzip or less)`,
    );
  } finally {
    await browser.close();
    await product.stop();
  }
}
