import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { answerLayers, createApp } from '../app';
import { testEnv } from '../../test/helpers';
import { createLogger } from './logger';

/** A logger whose output is kept as lines, as an operator reading them would see them. */
function keptLogs() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

function appWithLogs() {
  const { logger, lines } = keptLogs();
  const app = createApp({ env: testEnv(), logger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
  return { app, lines };
}

describe('request log', () => {
  it('writes one short line per request: method, path, status, time and the id answered in X-Request-Id, no headers', async () => {
    const { app, lines } = appWithLogs();
    const response = await request(app)
      .get('/trpc/home.get?batch=1&input={"0":{"json":{"code":"123456"}}}')
      .set('Authorization', 'tma user=%7B%22id%22%3A1%7D&hash=secret-looking-hash')
      .set('Cookie', 'session=abc')
      .set('User-Agent', 'Mozilla/5.0 (a long browser name)');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      req: { method: 'GET', path: '/trpc/home.get' },
      res: { status: response.status },
      reqId: response.headers['x-request-id'],
    });
    expect(line.msg).toMatch(/^GET \/trpc\/home\.get \d{3} \d+ ms$/);
    expect(typeof line.ms).toBe('number');
    for (const leak of ['secret-looking-hash', 'session=abc', 'Mozilla', '123456', 'headers']) expect(lines[0]).not.toContain(leak);
    expect(lines[0]!.length).toBeLessThan(300);
  });

  it('never logs a sign-in password or token, and keeps a request id the proxy sent when it is a plain token', async () => {
    const { app, lines } = appWithLogs();
    await request(app)
      .post('/api/admin/login')
      .set('X-Request-Id', '0b9e3c1a-7f3a-4d2e-9c8b-5a6f7e8d9c0b')
      .send({ username: 'nobody', password: 'a-password-to-hide' });
    const refused = await request(app)
      .get('/api/admin/users')
      .set('X-Request-Id', 'not a plain token')
      .set('Authorization', 'Bearer eyJ.fake.token');
    expect(lines.map((l) => JSON.parse(l).reqId)).toEqual(['0b9e3c1a-7f3a-4d2e-9c8b-5a6f7e8d9c0b', refused.headers['x-request-id']]);
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
      expect.stringMatching(/^POST \/api\/admin\/login 401 /),
      expect.stringMatching(/^GET \/api\/admin\/users 401 /),
    ]);
    for (const line of lines) for (const leak of ['a-password-to-hide', 'eyJ.fake.token']) expect(line).not.toContain(leak);
  });

  it('tags the lines written while answering with the request id alone, and logs a failed answer at error', async () => {
    const { logger, lines } = keptLogs();
    const app = express();
    app.use(answerLayers(logger));
    app.get('/api/broken', (req, res) => {
      req.log.warn('something to look at');
      res.status(500).json({ code: 'INTERNAL' });
    });
    const response = await request(app).get('/api/broken?token=input-to-hide').expect(500);
    const [during, done] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const id = response.headers['x-request-id'];
    expect(during).toEqual({
      level: 40,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: id,
      msg: 'something to look at',
    });
    expect(done).toMatchObject({
      level: 50,
      reqId: id,
      req: { method: 'GET', path: '/api/broken' },
      res: { status: 500 },
      ms: expect.any(Number),
    });
    expect(done!.msg).toBe('GET /api/broken 500');
    expect(lines.join('\n')).not.toContain('input-to-hide');
  });
});
