import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { TRPC_MAX_BATCH_SIZE } from '@gift/shared';
import { createApp } from './app';
import { loadEnv } from './env';
import { chooseSigningSecret } from './modules/config/signingSecret.service';
import { consoleToken } from './modules/accounts/operatorSecurity.service';
import { CALLS_PER_PLAYER } from './http/trpc';
import { tmaHeader } from '../test/telegram';
import { startBotApiStandIn, type BotApiStandIn } from '../test/botApiStandIn';
import { createCoin, createPlayer } from '../test/factories';
import { silentLogger, TEST_BOT_TOKEN, testEnv } from '../test/helpers';
import { consoleApi, createOperator, OPERATOR_PASSWORD } from '../test/operators';
import { signPlayerToken } from './modules/users/playerAuth.service';
import { LoginCodeModel } from './modules/users/loginCode.model';
import { LOGIN_CODE_CHECKS_PER_ADDRESS, LOGIN_CODE_REQUESTS_PER_ADDRESS } from './modules/users/auth.router';
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

describe('a webhook that stalls the server', () => {
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
    const update = {
      update_id: 3,
      message: { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: 77, type: 'private' }, text: 'hello' },
    };
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

/** An address in the one /64 an IPv6 host is given: 2⁶⁴ of them to choose from. */
const inOne64 = (i: number) =>
  `2001:db8:14:1:${(i >> 16) & 0xffff ? ((i >> 16) & 0xffff).toString(16) : '0'}:${(i & 0xffff).toString(16)}:a:${(i + 1).toString(16)}`;

interface Answered {
  status: number;
  code: string;
  result?: unknown;
}

/** One tRPC mutation over HTTP from this client address (the app trusts the loopback proxy that names it). */
async function mutation(app: Express, procedure: string, input: unknown, address: string): Promise<Answered> {
  const res = await request(app).post(`/trpc/${procedure}`).set('X-Forwarded-For', address).send({ json: input });
  const body = res.body as { result?: { data: { json: unknown } }; error?: { json: { data: { appCode: string | null; code: string } } } };
  return {
    status: res.status,
    code: body.error ? (body.error.json.data.appCode ?? body.error.json.data.code) : 'OK',
    result: body.result?.data.json,
  };
}

async function eventually<T>(look: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const found = await look();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe('one IPv6 /64 is one address for every address limit', () => {
  // one window of each limit for the whole test, whenever it runs
  const now = new Date();
  const app = createApp({
    env: testEnv({ TRUST_PROXY: 'loopback' }),
    logger: silentLogger,
    clientDist: '/nonexistent',
    adminDist: '/nonexistent',
    clock: () => now,
  });

  it('stops sign-in code requests from 2⁶⁴ addresses of one /64 after the limit of one address', async () => {
    const limit = LOGIN_CODE_REQUESTS_PER_ADDRESS.limit;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 10; i++)
      statuses.push((await mutation(app, 'auth.requestLoginCode', { username: `someone_${i}` }, inOne64(i))).status);
    expect(statuses).toEqual([...Array(limit).fill(200), ...Array(10).fill(429)]);
    // a neighbour in another /64 is not held back
    expect((await mutation(app, 'auth.requestLoginCode', { username: 'neighbour' }, '2001:db8:14:2::1')).status).toBe(200);
  });

  it('stops sign-in code guesses from 2⁶⁴ addresses of one /64 after the limit of one address', async () => {
    const codes: string[] = [];
    const batch = Array.from({ length: TRPC_MAX_BATCH_SIZE }, () => 'auth.verifyLoginCode').join(',');
    const input = Object.fromEntries(
      Array.from({ length: TRPC_MAX_BATCH_SIZE }, (_, i) => [
        i,
        { json: { username: 'flood_target', requestId: 'AAAAAAAAAAAAAAAAAAAAAA', code: '123456' } },
      ]),
    );
    for (let i = 0; i < 12; i++) {
      const res = await request(app)
        .post(`/trpc/${batch}?batch=1`)
        .set('X-Forwarded-For', inOne64(1000 + i))
        .send(input);
      codes.push(...(res.body as Array<{ error: { json: { data: { appCode: string } } } }>).map((item) => item.error.json.data.appCode));
    }
    expect(codes.filter((c) => c === 'INCORRECT_CODE')).toHaveLength(LOGIN_CODE_CHECKS_PER_ADDRESS.limit);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(12 * TRPC_MAX_BATCH_SIZE - LOGIN_CODE_CHECKS_PER_ADDRESS.limit);
  });

  it("counts the console's sign-in failures from one /64 together", async () => {
    const { account } = await createOperator();
    for (let i = 0; i < 10; i++) {
      const res = await request(app)
        .post('/api/admin/login')
        .set('X-Forwarded-For', inOne64(2000 + i))
        .send({ username: account.username, password: `guess ${i}` });
      expect(res.status).toBe(401);
    }
    const next = await request(app)
      .post('/api/admin/login')
      .set('X-Forwarded-For', inOne64(3000))
      .send({ username: account.username, password: OPERATOR_PASSWORD });
    expect(next.status).toBe(429);
  });
});

describe('web sign-in codes', () => {
  const now = new Date();
  let standIn: BotApiStandIn;
  let app: Express;
  beforeAll(async () => {
    standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
    app = createApp({
      env: testEnv({ TRUST_PROXY: 'loopback', TELEGRAM_API_ROOT: standIn.apiRoot }),
      logger: silentLogger,
      clock: () => now,
      clientDist: '/nonexistent',
      adminDist: '/nonexistent',
    });
  });
  afterAll(() => standIn.close());

  const attacker = '2001:db8:66:6::1';
  const victimPhone = '198.51.100.23';
  const codesTo = (telegramId: number) => standIn.sent.filter((m) => m.chat_id === telegramId).map((m) => /(\d{6})/.exec(m.text)![1]!);
  // the request is recorded just after the answer goes out: a guess sent before then finds no request (and answers as any
  // wrong code, uncounted), which a person typing a code never meets but a test that guesses at once does
  const askForCode = async (username: string, address: string) => {
    const before = await LoginCodeModel.estimatedDocumentCount();
    const answer = await mutation(app, 'auth.requestLoginCode', { username }, address);
    expect(answer.status).toBe(200);
    const recorded = async () => (await LoginCodeModel.estimatedDocumentCount()) > before || undefined;
    await eventually(recorded, 'the request recorded');
    return (answer.result as { requestId: string }).requestId;
  };
  const wrongCodes = ['000000', '111111', '222222', '333333', '444444', '555555', '666666'];

  it('lets the victim sign in at once with a code they ask for, while an attacker asks for codes and burns every try', async () => {
    const victim = await createPlayer({ username: 'victim_web', usernameLower: 'victim_web', messagePermission: true });
    // the attacker asks for the victim's code, again and again, and spends every try of each request, and more
    for (let round = 0; round < 3; round++) {
      const attackerRequest = await askForCode('victim_web', attacker);
      const outcomes = [];
      for (const code of wrongCodes)
        outcomes.push(
          (await mutation(app, 'auth.verifyLoginCode', { username: 'victim_web', requestId: attackerRequest, code }, attacker)).code,
        );
      expect(outcomes).toEqual([
        'INCORRECT_CODE',
        'INCORRECT_CODE',
        'INCORRECT_CODE',
        'INCORRECT_CODE',
        'INCORRECT_CODE',
        'TOO_MANY_ATTEMPTS',
        'TOO_MANY_ATTEMPTS',
      ]);
    }
    // once a minute from one address: the victim got one of the attacker's codes, no more
    const fromAttacker = await eventually(
      () => (codesTo(victim.telegramId).length ? codesTo(victim.telegramId) : undefined),
      "the attacker's code",
    );
    expect(fromAttacker).toHaveLength(1);

    // the victim, right after, asks for a code from their phone and signs in with it
    const victimRequest = await askForCode('@Victim_Web', victimPhone);
    const code = await eventually(() => codesTo(victim.telegramId)[1], "the victim's own code");
    const signedIn = await mutation(app, 'auth.verifyLoginCode', { username: 'victim_web', requestId: victimRequest, code }, victimPhone);
    expect(signedIn).toMatchObject({ status: 200, code: 'OK' });
    const me = await request(app)
      .get('/trpc/user.me')
      .set('Authorization', `Bearer ${(signedIn.result as { token: string }).token}`);
    expect(me.body.result.data.json).toMatchObject({ id: String(victim._id) });
    // two messages in all: the attacker's requests did not spam them either
    expect(codesTo(victim.telegramId)).toHaveLength(2);
  });

  it('answers the same, try after try, for a username that plays here and one that does not', async () => {
    await createPlayer({ username: 'real_player', usernameLower: 'real_player', messagePermission: true });
    await createPlayer({ username: 'quiet_player', usernameLower: 'quiet_player', messagePermission: false });
    const transcript = async (username: string, address: string) => {
      const asked = await mutation(app, 'auth.requestLoginCode', { username }, address);
      const { requestId, ...shown } = asked.result as { requestId: string };
      const lines = [`${asked.status} ${JSON.stringify(shown)} ${/^[\w-]{22}$/.test(requestId)}`];
      // the request is recorded before the first check, as it is for a player who has read their code
      await eventually(async () => (await LoginCodeModel.exists({ usernameLower: username })) ?? undefined, 'the request recorded');
      for (const code of wrongCodes) {
        const answer = await mutation(app, 'auth.verifyLoginCode', { username, requestId, code }, address);
        lines.push(`${answer.status} ${answer.code}`);
      }
      return lines;
    };
    const real = await transcript('real_player', '203.0.113.10');
    expect(await transcript('nobody_plays_as_me', '203.0.113.11')).toEqual(real);
    expect(await transcript('quiet_player', '203.0.113.12')).toEqual(real);
    expect(real.slice(1)).toEqual([
      '400 INCORRECT_CODE',
      '400 INCORRECT_CODE',
      '400 INCORRECT_CODE',
      '400 INCORRECT_CODE',
      '400 INCORRECT_CODE',
      '429 TOO_MANY_ATTEMPTS',
      '429 TOO_MANY_ATTEMPTS',
    ]);
  });
});

describe('the signing secret outside production', () => {
  /** The constant anyone can read in the source. */
  const CONSTANT_IN_THE_SOURCE = 'development-only-secret-change-me-0123456789';

  function recordingLogger() {
    const lines: Array<{ msg: string; signingSecret?: string }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    return { logger: pino({ level: 'info' }, sink), lines };
  }

  it('a server on a real database without NODE_ENV refuses a console token forged with the constant, and says what it signs with', async () => {
    const loaded = loadEnv({ MONGO_URL: 'mongodb://db.example.com:27017/gift', LOG_LEVEL: 'silent' });
    expect(loaded.NODE_ENV).toBe('development');
    const { logger, lines } = recordingLogger();
    const { env } = await chooseSigningSecret(loaded, { embedded: false }, logger);
    expect(lines.map((l) => l.signingSecret)).toEqual(['generated and stored in the database']);
    const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

    const { account } = await createOperator(['*']);
    const forged = await consoleToken(account, CONSTANT_IN_THE_SOURCE);
    const attempt = await request(app).get('/api/admin/users').set('Authorization', `Bearer ${forged}`);
    expect(attempt.status).toBe(401);

    // every instance on that database signs with the same stored secret, so their tokens work on each other
    const other = await chooseSigningSecret(loaded, { embedded: false }, silentLogger);
    expect(other.env.JWT_SECRET).toBe(env.JWT_SECRET);
    const issued = await consoleToken(account, other.env.JWT_SECRET);
    expect((await request(app).get('/api/admin/users').set('Authorization', `Bearer ${issued}`)).status).toBe(200);
  });

  it('keeps the constant for the embedded demo, and signs with JWT_SECRET when it is set', async () => {
    const demo = await chooseSigningSecret(loadEnv({ LOG_LEVEL: 'silent' }), { embedded: true }, silentLogger);
    expect(demo).toMatchObject({ source: 'development constant (embedded demo database)', env: { JWT_SECRET: CONSTANT_IN_THE_SOURCE } });
    const chosen = 'an operator chose this secret, 32+ chars';
    const configured = await chooseSigningSecret(
      loadEnv({ MONGO_URL: 'mongodb://db/gift', JWT_SECRET: chosen }),
      { embedded: false },
      silentLogger,
    );
    expect(configured).toMatchObject({ source: 'JWT_SECRET', env: { JWT_SECRET: chosen } });
    // set to the constant itself, it is as good as unset
    const copied = await chooseSigningSecret(
      loadEnv({ MONGO_URL: 'mongodb://db/gift', JWT_SECRET: CONSTANT_IN_THE_SOURCE }),
      { embedded: false },
      silentLogger,
    );
    expect(copied.source).toBe('generated and stored in the database');
    expect(copied.env.JWT_SECRET).not.toBe(CONSTANT_IN_THE_SOURCE);
  });
});

describe('a budget of calls per player', () => {
  // one minute's window for the whole flood, whenever the test runs
  const now = new Date();
  const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent', clock: () => now });

  it('refuses one player who floods reads in batches over 8 connections beyond their budget, and serves another player meanwhile', async () => {
    const flooder = tmaHeader({ user: { id: 6_140_001 } });
    const batch = `/trpc/${Array.from({ length: TRPC_MAX_BATCH_SIZE }, () => 'home.get').join(',')}?batch=1&input={}`;
    const perConnection = Math.ceil((CALLS_PER_PLAYER.limit + 60) / TRPC_MAX_BATCH_SIZE / 8);
    const connection = async () => {
      const codes: string[] = [];
      for (let i = 0; i < perConnection; i++) {
        const res = await request(app).get(batch).set('Authorization', flooder);
        codes.push(
          ...(res.body as Array<{ error?: { json: { data: { appCode: string } } } }>).map((item) => item.error?.json.data.appCode ?? 'OK'),
        );
      }
      return codes;
    };
    const codes = (await Promise.all(Array.from({ length: 8 }, connection))).flat();
    expect(codes.filter((c) => c === 'OK')).toHaveLength(CALLS_PER_PLAYER.limit);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(codes.length - CALLS_PER_PLAYER.limit);

    const other = await request(app)
      .get('/trpc/home.get')
      .set('Authorization', tmaHeader({ user: { id: 6_140_002 } }));
    expect(other.status).toBe(200);
    const flooderAgain = await request(app).get('/trpc/user.me').set('Authorization', flooder);
    expect(flooderAgain.status).toBe(429);
    expect(flooderAgain.body.error.json.message).toBe('Too many requests, try again later');
  });
});

describe('framing, App Config edits, sign-out and request ids', () => {
  const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

  it('lets *.telegram.org frame the user app but nobody frame the console', async () => {
    for (const path of ['/admin', '/admin/users/1/show']) {
      const res = await request(app).get(path);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).not.toMatch(/frame-ancestors[^;]*telegram/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const userApp = await request(app).get('/');
    expect(userApp.headers['content-security-policy']).toContain("frame-ancestors 'self' https://web.telegram.org https://*.telegram.org");
    expect(userApp.headers['x-frame-options']).toBeUndefined();
  });

  it('an App Config PUT of {} changes nothing, and a PUT naming one field changes that field alone', async () => {
    const api = consoleApi(app, (await createOperator(['app-config:write'])).token);
    const coin = await createCoin({ symbol: 'MINE' });
    const [config] = (await api.get('/app-config')).body as Array<Record<string, unknown>>;
    const set = {
      ...config,
      miningCoin: String(coin._id),
      earnAmount: '12.5',
      earnDurationHours: 6,
      referrerCoin: String(coin._id),
      referrerCoinAmount: '50',
    };
    expect((await api.put('/app-config/current', set)).status).toBe(200);
    const before = (await api.get('/app-config/current')).body as Record<string, unknown>;

    const empty = await api.put('/app-config/current', {});
    expect(empty.status).toBe(200);
    const { updatedAt: _after, ...after } = empty.body as Record<string, unknown>;
    const { updatedAt: _before, ...unchanged } = before;
    expect(after).toEqual(unchanged);
    expect(after).toMatchObject({ miningCoin: String(coin._id), earnAmount: '12.5', referrerCoinAmount: '50' });

    const one = await api.put('/app-config/current', { earnAmount: '20' });
    expect(one.body).toMatchObject({ earnAmount: '20', miningCoin: String(coin._id), earnDurationHours: 6, referrerCoinAmount: '50' });
  });

  it("ends a player's web tokens at once when they sign out everywhere, and when an operator blocks them, for good", async () => {
    const me = (token: string) => request(app).get('/trpc/user.me').set('Authorization', `Bearer ${token}`);
    const player = await createPlayer();
    // two devices signed in with web codes
    const phone = signPlayerToken(String(player._id), testEnv().JWT_SECRET, new Date());
    const laptop = signPlayerToken(String(player._id), testEnv().JWT_SECRET, new Date(Date.now() - 1000));
    expect((await me(phone)).status).toBe(200);
    expect((await me(laptop)).status).toBe(200);
    const out = await request(app).post('/trpc/auth.signOutEverywhere').set('Authorization', `Bearer ${phone}`).send({});
    expect(out.status).toBe(200);
    expect((await me(phone)).status).toBe(401);
    expect((await me(laptop)).status).toBe(401);

    // signed in again, then banned by an operator, then made active again: the token from before the ban stays dead
    const again = signPlayerToken(String(player._id), testEnv().JWT_SECRET, new Date(), 1);
    expect((await me(again)).status).toBe(200);
    const api = consoleApi(app, (await createOperator(['users:write'])).token);
    expect((await api.put(`/users/${String(player._id)}`, { status: 'banned', statusReason: 'Fake referrals' })).status).toBe(200);
    expect((await me(again)).status).toBe(401);
    expect((await api.put(`/users/${String(player._id)}`, { status: 'active' })).status).toBe(200);
    expect((await me(again)).status).toBe(401);
    // the console never sees the version
    expect(JSON.stringify((await api.get(`/users/${String(player._id)}`)).body)).not.toContain('tokenVersion');
  });

  it('does not let a client plant its own request id in the logs', async () => {
    const planted = await request(app).get('/healthz').set('X-Request-Id', 'withdrawal-approved-by-ops');
    expect(planted.headers['x-request-id']).not.toBe('withdrawal-approved-by-ops');
    expect(planted.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const fromProxy = '3f1c2b4a-9d8e-4f7a-b6c5-0e1d2c3b4a59';
    expect((await request(app).get('/healthz').set('X-Request-Id', fromProxy)).headers['x-request-id']).toBe(fromProxy);
  });
});
