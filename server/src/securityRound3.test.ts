import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createApp } from './app';
import { startBotApiStandIn, type BotApiStandIn } from '../test/botApiStandIn';
import { silentLogger, TEST_BOT_TOKEN, testEnv } from '../test/helpers';
import { webhookSecretToken } from './modules/bot/bot.service';
import { BotRuntime } from './modules/bot/botRuntime';
import { RateLimitCounterModel } from './modules/rateLimits/rateLimit.model';

/** The attacks of issue 14 ("security, round 3"), each sent as the attacker sent it. */

// every request here comes from one address: each test starts with fresh counters
afterEach(() => RateLimitCounterModel.deleteMany({}));

const listen = (handler: Parameters<typeof createServer>[1]) =>
  new Promise<{ server: Server; port: number }>((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

interface Answer {
  status: number;
  text: string;
  ms: number;
}

/** One request over a fresh connection, timed from the first byte sent to the last byte of the answer. */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method,
      path,
      agent: false,
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Announces a large body and sends only its first bytes: a door that refuses without reading the body
 * answers at once; one that reads it first is still waiting when the sender gives up and ends it.
 */
function answerBeforeTheBody(port: number, headers: Record<string, string>): Promise<number | 'waited for the whole body'> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/telegram/webhook',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': '40000', ...headers },
    });
    let bodyEnded = false;
    req.on('response', (res) => {
      res.resume();
      resolve(bodyEnded ? 'waited for the whole body' : res.statusCode!);
    });
    req.on('error', (error) => (bodyEnded ? undefined : reject(error)));
    req.write('['.repeat(20_000));
    // the rest of the body, long after any door that does not wait for it has answered
    setTimeout(() => {
      bodyEnded = true;
      req.end(']'.repeat(20_000));
    }, 3000).unref();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
};
const figures = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

describe('finding 1: a webhook that stalls the server', () => {
  let standIn: BotApiStandIn;
  let runtime: BotRuntime;
  let served: { server: Server; port: number };
  let secret: string;
  beforeAll(async () => {
    standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
    const env = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, PUBLIC_URL: 'https://rewards.example.com' });
    runtime = new BotRuntime({ env, logger: silentLogger, holder: 'instance-attacked' });
    await runtime.start();
    secret = webhookSecretToken(TEST_BOT_TOKEN, env.JWT_SECRET);
    served = await listen(createApp({ env, logger: silentLogger, bot: runtime, clientDist: '/nonexistent', adminDist: '/nonexistent' }));
  });
  afterAll(async () => {
    await close(served.server);
    await runtime.stop();
    await standIn.close();
  });

  // 1 kB on the wire, 1 MB of nesting once inflated: what the attacker sent
  const nested = Buffer.from(`${'['.repeat(500_000)}${']'.repeat(500_000)}`);
  const bomb = gzipSync(nested, { level: 9 });
  const bombHeaders = { 'content-type': 'application/json', 'content-encoding': 'gzip' };

  it('answers a flood of gzip bombs without the secret header with 401, without reading them, and /healthz keeps answering', async () => {
    expect(bomb.length).toBeLessThan(2000);
    const healthz = async (rounds: number) => {
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const answer = await send(served.port, 'GET', '/healthz');
        expect(answer.status).toBe(200);
        times.push(answer.ms);
      }
      return times;
    };
    const quiet = await healthz(20);

    let attacking = true;
    const attackStatuses: number[] = [];
    const attacker = async () => {
      for (let i = 0; i < 15; i++) attackStatuses.push((await send(served.port, 'POST', '/telegram/webhook', bombHeaders, bomb)).status);
    };
    const attack = Promise.all(Array.from({ length: 6 }, attacker)).finally(() => (attacking = false));
    const underAttack: number[] = [];
    while (attacking) underAttack.push(...(await healthz(1)));
    await attack;

    process.stdout.write(
      `webhook flood: ${attackStatuses.length} gzip bombs of ${bomb.length} bytes from 6 connections at once\n` +
        `  /healthz quiet:        ${figures(quiet)} (${quiet.length} requests)\n` +
        `  /healthz under attack: ${figures(underAttack)} (${underAttack.length} requests)\n`,
    );
    expect(attackStatuses).toEqual(Array.from({ length: 90 }, () => 401));
    expect(underAttack.length).toBeGreaterThan(0);
  });

  it('refuses without the secret before the body has even arrived', async () => {
    expect(await answerBeforeTheBody(served.port, {})).toBe(401);
    expect(await answerBeforeTheBody(served.port, { 'x-telegram-bot-api-secret-token': 'a guess' })).toBe(401);
  });

  it('with the right secret still refuses a compressed body (415), a deeply nested one (400) and a large one (413)', async () => {
    const withSecret = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret };
    expect((await send(served.port, 'POST', '/telegram/webhook', { ...withSecret, 'content-encoding': 'gzip' }, bomb)).status).toBe(415);
    const deep = await send(
      served.port,
      'POST',
      '/telegram/webhook',
      withSecret,
      Buffer.from(`{"update_id":1,"message":${'['.repeat(5000)}${']'.repeat(5000)}}`),
    );
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toEqual({ message: 'Request nested too deeply', code: 'BAD_INPUT' });
    const large = Buffer.from(JSON.stringify({ update_id: 2, message: { text: 'x'.repeat(200_000) } }));
    expect((await send(served.port, 'POST', '/telegram/webhook', withSecret, large)).status).toBe(413);
    // Telegram's own update still goes through
    const update = { update_id: 3, message: { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: 77, type: 'private' }, text: 'hello' } };
    expect((await send(served.port, 'POST', '/telegram/webhook', withSecret, Buffer.from(JSON.stringify(update)))).status).toBe(200);
  });

  it('without a webhook configured, answers 404 before the body has arrived', async () => {
    const plain = await listen(createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' }));
    try {
      expect(await answerBeforeTheBody(plain.port, { 'x-telegram-bot-api-secret-token': secret })).toBe(404);
    } finally {
      await close(plain.server);
    }
  });
});
