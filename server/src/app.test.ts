import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { createApp, helmetOptions } from './app';
import { silentLogger, testEnv } from '../test/helpers';

describe('the server', () => {
  const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

  it('reports the process and database as healthy', async () => {
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'up' });
  });

  it('builds the TON Connect manifest from the request origin, honouring a configured proxy', async () => {
    const behindProxy = createApp({
      env: testEnv({ TRUST_PROXY: 'loopback' }),
      logger: silentLogger,
      clientDist: '/nonexistent',
      adminDist: '/nonexistent',
    });
    const res = await request(behindProxy)
      .get('/tonconnect-manifest.json')
      .set('Host', 'play.example.com')
      .set('X-Forwarded-Proto', 'https');
    expect(res.status).toBe(200);
    expect(res.body.url).toBe('https://play.example.com');
    expect(res.body.iconUrl).toBe('https://play.example.com/icon-192.png');
  });

  it('sends security headers and no framework fingerprint', async () => {
    const res = await request(app).get('/healthz');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self' https://web.telegram.org");
  });

  it('answers a tRPC call and a console page with exactly the security headers helmet sets, set once at start', async () => {
    // helmet itself, running on every request as its docs show: what it adds to an empty answer is what it sets
    const live = express();
    live.use(helmet(helmetOptions('app')));
    live.use('/admin', helmet(helmetOptions('console')));
    live.use((_req, res) => void res.end());
    const added = async (url: string) => {
      const { headers } = await request(live).get(url);
      return Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'connection', 'content-length'].includes(name)));
    };
    const forApp = await added('/trpc/health');
    const forConsole = await added('/admin/login');
    expect(Object.keys(forApp).length).toBeGreaterThanOrEqual(10);
    expect(forConsole['x-frame-options']).toBe('DENY');
    expect(forConsole['content-security-policy']).toContain("frame-ancestors 'none'");

    const answer = await request(app).get('/trpc/health').expect(200);
    expect(answer.headers).toMatchObject(forApp);
    const consolePage = await request(app).get('/admin/login');
    expect(consolePage.headers).toMatchObject(forConsole);
    expect(answer.headers['x-frame-options']).toBeUndefined();
    expect(answer.headers['x-powered-by']).toBeUndefined();
  });

  it('answers tRPC calls with superjson', async () => {
    const res = await request(app).get('/trpc/health');
    expect(res.status).toBe(200);
    expect(res.body.result.data.json).toEqual({ ok: true });
  });

  it('says the length of a tRPC answer, as a console answer does, unless it is compressed', async () => {
    // an answer of unknown length goes out in chunks: more bytes and writes for every call
    const plain = await request(app).get('/trpc/health').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['transfer-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.text));
    // ten unknown procedures in one batch: ten error answers, above compression's 1 kB threshold
    const big = `/trpc/${Array.from({ length: 10 }, () => 'nothing').join(',')}?batch=1&input={}`;
    const compressed = await request(app).get(big).set('Accept-Encoding', 'gzip').expect(404);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['content-length']).toBeUndefined();
  });

  it('refuses oversized and malformed JSON bodies with a clear message', async () => {
    const big = await request(app)
      .post('/api/admin/login')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ username: 'x'.repeat(200_000) }));
    expect(big.status).toBe(413);
    const bad = await request(app).post('/api/admin/login').set('Content-Type', 'application/json').send('{"username":');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Malformed JSON body');
  });

  it('answers unknown API paths with a JSON 404, and says when a front end is not built', async () => {
    const api = await request(app).get('/api/nothing');
    expect(api.status).toBe(404);
    const page = await request(app).get('/profile');
    expect(page.status).toBe(503);
    expect(page.text).toContain('npm run build');
  });
});
