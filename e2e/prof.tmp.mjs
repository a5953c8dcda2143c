import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium.mjs';
import { startServedProduct } from './servedProduct.mjs';
const product = await startServedProduct();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(product.base + '/');
  await page.waitForTimeout(8000);
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  const dt = profile.timeDeltas; const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const counts = new Map();
  profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
  for (const [id, t] of counts) { const n = byId.get(id); const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}:${cf.columnNumber}`; self.set(key, (self.get(key) ?? 0) + t); }
  [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).forEach(([k, t]) => console.log((t / 1000).toFixed(0).padStart(6), k));
  // long tasks by rAF/timers: count intervals
} finally { await browser.close(); await product.stop(); }
