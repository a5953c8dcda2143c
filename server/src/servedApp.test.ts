import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from './app';
import { silentLogger, testEnv } from '../test/helpers';

// a built user app as Vite and vite-plugin-pwa lay it out
const dist = mkdtempSync(path.join(tmpdir(), 'gift-client-dist-'));
const bundle = `console.log(${JSON.stringify('the first screen '.repeat(400))});`;
beforeAll(() => {
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, 'builds'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Gift Rewards</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-AbC123.js'), bundle);
  writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dist, 'builds', 'latest.json'), '{"version":"v2"}');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const app = () => createApp({ env: testEnv(), logger: silentLogger, clientDist: dist, adminDist: '/nonexistent' });

describe('the built user app as a phone receives it', () => {
  it('compresses what it sends when the browser accepts gzip', async () => {
    const res = await request(app()).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toBe(bundle);
  });

  it('caches hashed assets for good, and revalidates the page, the service worker and the release file', async () => {
    const asset = await request(app()).get('/assets/index-AbC123.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const file of ['/sw.js', '/builds/latest.json', '/', '/staking/abc']) {
      const res = await request(app()).get(file);
      expect([file, res.status, res.headers['cache-control']]).toEqual([file, 200, 'no-cache']);
    }
  });

  it('answers a missing hashed asset with 404, never with the app page', async () => {
    const res = await request(app()).get('/assets/index-Old999.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<div id="root">');
  });

  it('serves real terms and privacy pages where the TON Connect manifest points', async () => {
    const manifest = await request(app()).get('/tonconnect-manifest.json').set('Host', 'play.example.com');
    for (const link of [manifest.body.termsOfUseUrl, manifest.body.privacyPolicyUrl]) {
      const res = await request(app()).get(new URL(link).pathname);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.text).toMatch(/<h1>(Terms of use|Privacy policy)<\/h1>/);
    }
  });
});
