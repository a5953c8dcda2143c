import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { brotliCompressSync } from 'node:zlib';
import pino from 'pino';
import request from 'supertest';
import { TRPC_MAX_BATCH_SIZE } from '@gift/shared';
import { createApp } from './app';
import type { Logger } from './lib/logger';
import { AccountModel } from './modules/accounts/account.model';
import { bootstrapSuperAdmin } from './modules/accounts/accounts.service';
import { LOGIN_CODE_CHECKS_PER_ADDRESS, LOGIN_CODE_REQUESTS_PER_ADDRESS } from './modules/users/auth.router';
import { CLAIMS_PER_PLAYER } from './modules/missions/missions.router';
import { RateLimitCounterModel } from './modules/rateLimits/rateLimit.model';
import { PROOF_PAYLOADS_PER_PLAYER } from './modules/wallet/wallet.router';
import { createPlayer, playerCaller } from '../test/factories';
import { silentLogger, TEST_BOT_TOKEN, testEnv } from '../test/helpers';
import { consoleApi, createOperator, OPERATOR_PASSWORD } from '../test/operators';
import { tmaHeader } from '../test/telegram';

/** The attacks of issue 6, each sent as the attacker sent it, against the app's HTTP door. */
const newApp = (overrides: Record<string, string> = {}, logger: Logger = silentLogger) =>
  createApp({ env: testEnv(overrides), logger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

/** A logger that keeps what it writes, to show a refused request leaves no error line. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), errors: () => lines.filter((l) => l.level >= 50) };
}

// every request here comes from one address: each test starts with fresh counters
afterEach(() => RateLimitCounterModel.deleteMany({}));

const trpcErrorCodes = (body: Array<{ error?: { json: { data: { code: string; appCode: string | null } } } }>) =>
  body.map((item) => item.error?.json.data.appCode ?? item.error?.json.data.code ?? 'OK');
const count = (codes: string[], code: string) => codes.filter((c) => c === code).length;

describe('tRPC batches and floods', () => {
  const app = newApp();

  it('refuses a batch of 1,500 home.get calls in one GET, and serves a batch as large as the client sends', async () => {
    const auth = tmaHeader({ user: { id: 6_000_001 } });
    const paths = (n: number) => Array.from({ length: n }, () => 'home.get').join(',');
    const flood = await request(app)
      .get(`/trpc/${paths(1500)}?batch=1&input={}`)
      .set('Authorization', auth);
    expect(flood.status).toBe(400);
    expect(flood.text).toContain('Batch call exceeds maximum size');

    const allowed = await request(app)
      .get(`/trpc/${paths(TRPC_MAX_BATCH_SIZE)}?batch=1&input={}`)
      .set('Authorization', auth);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toHaveLength(TRPC_MAX_BATCH_SIZE);
  });

  it('stops a signed-out flood of sign-in code guesses from one address', async () => {
    const batch = Array.from({ length: TRPC_MAX_BATCH_SIZE }, () => 'auth.verifyLoginCode').join(',');
    const input = Object.fromEntries(
      Array.from({ length: TRPC_MAX_BATCH_SIZE }, (_, i) => [
        i,
        { json: { username: 'flood_target', requestId: 'AAAAAAAAAAAAAAAAAAAAAA', code: '123456' } },
      ]),
    );
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(app).post(`/trpc/${batch}?batch=1`).send(input);
      codes.push(...trpcErrorCodes(res.body));
    }
    expect(count(codes, 'INCORRECT_CODE')).toBe(LOGIN_CODE_CHECKS_PER_ADDRESS.limit);
    expect(count(codes, 'RATE_LIMITED')).toBe(4 * TRPC_MAX_BATCH_SIZE - LOGIN_CODE_CHECKS_PER_ADDRESS.limit);
  });

  it('stops a flood of sign-in code requests from one address', async () => {
    const limit = LOGIN_CODE_REQUESTS_PER_ADDRESS.limit;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const res = await request(app)
        .post('/trpc/auth.requestLoginCode')
        .send({ json: { username: `someone_${i}` } });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, limit).every((s) => s === 200)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });

  it('limits claims and ton_proof payloads per player', async () => {
    const player = await createPlayer();
    const claims = await Promise.allSettled(
      Array.from({ length: CLAIMS_PER_PLAYER.limit + 5 }, () =>
        playerCaller(player).missions.claim({ missionId: '64b000000000000000000000' }),
      ),
    );
    const claimCodes = claims.map((o) => (o.status === 'rejected' ? (o.reason as { cause?: { code?: string } }).cause?.code : 'OK'));
    expect(count(claimCodes as string[], 'RATE_LIMITED')).toBe(5);

    const payloads = [];
    for (let i = 0; i <= PROOF_PAYLOADS_PER_PLAYER.limit; i++)
      payloads.push(
        await playerCaller(player)
          .wallet.proofPayload()
          .then(
            () => 'OK',
            (e) => e.cause?.code,
          ),
      );
    expect(payloads.slice(0, PROOF_PAYLOADS_PER_PLAYER.limit).every((c) => c === 'OK')).toBe(true);
    expect(payloads.at(-1)).toBe('RATE_LIMITED');
    // another player is not held back by this one
    await expect(playerCaller(await createPlayer()).wallet.proofPayload()).resolves.toHaveProperty('payload');
  });
});

describe('X-Forwarded-For and the sign-in lockout', () => {
  it('does not let a client name a new address on every try when no proxy is configured', async () => {
    const app = newApp();
    const { account } = await createOperator();
    for (let i = 0; i < 10; i++) {
      const res = await request(app)
        .post('/api/admin/login')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .send({ username: account.username, password: `guess ${i}` });
      expect(res.status).toBe(401);
    }
    const next = await request(app)
      .post('/api/admin/login')
      .set('X-Forwarded-For', '198.51.100.77')
      .send({ username: account.username, password: OPERATOR_PASSWORD });
    expect(next.status).toBe(429);
  });

  it('behind a configured proxy, counts the client the proxy names', async () => {
    const app = newApp({ TRUST_PROXY: 'loopback' });
    const { account } = await createOperator();
    for (let i = 0; i < 10; i++) {
      await request(app)
        .post('/api/admin/login')
        .set('X-Forwarded-For', '203.0.113.50')
        .send({ username: account.username, password: `guess ${i}` })
        .expect(401);
    }
    await request(app)
      .post('/api/admin/login')
      .set('X-Forwarded-For', '203.0.113.50')
      .send({ username: account.username, password: OPERATOR_PASSWORD })
      .expect(429);
    await request(app)
      .post('/api/admin/login')
      .set('X-Forwarded-For', '198.51.100.9')
      .send({ username: account.username, password: OPERATOR_PASSWORD })
      .expect(200);
  });
});

describe('malformed requests before sign-in', () => {
  it('answers 415 to a compressed body and to an unknown charset, 400 to JSON nested 20,000 deep, and logs no error', async () => {
    const { logger, errors } = recordingLogger();
    const app = newApp({ LOG_LEVEL: 'info' }, logger);
    const body = JSON.stringify({ username: 'admin', password: 'whatever it is' });

    const br = await request(app)
      .post('/api/admin/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'br')
      .send(brotliCompressSync(body));
    expect(br.status).toBe(415);
    const charset = await request(app).post('/api/admin/login').set('Content-Type', 'application/json; charset=foo').send(body);
    expect(charset.status).toBe(415);
    expect(charset.body).toEqual({ message: 'Send the body as uncompressed UTF-8 application/json', code: 'BAD_INPUT' });
    const notJson = await request(app)
      .post('/trpc/auth.requestLoginCode')
      .set('Content-Type', 'application/jsonx')
      .send(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    expect(notJson.status).toBe(415);

    const deep = `{"json":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const nested = await request(app).post('/trpc/auth.requestLoginCode').set('Content-Type', 'application/json').send(deep);
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ message: 'Request nested too deeply', code: 'BAD_INPUT' });
    // a URL holds less: 1,000 deep is already far past the limit
    const inQuery = await request(app)
      .get('/trpc/home.get')
      .query({ input: `{"json":${'['.repeat(1000)}${']'.repeat(1000)}}` });
    expect(inQuery.status).toBe(400);
    const onConsole = await request(app).post('/api/admin/login').set('Content-Type', 'application/json').send(deep);
    expect(onConsole.status).toBe(400);

    expect(errors()).toEqual([]);
    // an ordinary body still works
    await request(app)
      .post('/trpc/auth.requestLoginCode')
      .send({ json: { username: 'plain_body' } })
      .expect(200);
  });
});

describe('usernames, caching and filters', () => {
  const app = newApp();

  it('keeps usernames unique whatever their case, and signs in by any case', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    expect((await api.post('/accounts', { username: 'secadmin', password: 'long enough password' })).status).toBe(201);
    const upper = await api.post('/accounts', { username: 'SECADMIN', password: 'long enough password' });
    expect(upper.status).toBe(400);
    expect(upper.body.errors).toEqual({ username: 'This username is already taken' });
    const { body: other } = await api.post('/accounts', { username: 'other_admin', password: 'long enough password' });
    expect((await api.put(`/accounts/${other.id}`, { ...other, username: 'SecAdmin' })).status).toBe(400);
    expect(await AccountModel.countDocuments({ usernameKey: 'secadmin' })).toBe(1);

    expect((await request(app).post('/api/admin/login').send({ username: 'SecAdmin', password: 'long enough password' })).status).toBe(200);
    // the bootstrap admin of another case is the same account
    await bootstrapSuperAdmin('SECADMIN', 'bootstrap password 1');
    expect(await AccountModel.countDocuments({ usernameKey: 'secadmin' })).toBe(1);

    const racers = await Promise.all(
      ['RaceName', 'racename', 'RACENAME', 'raceName', 'RaceNAME'].map((username) =>
        api.post('/accounts', { username, password: 'long enough password' }),
      ),
    );
    expect(racers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await AccountModel.countDocuments({ usernameKey: 'racename' })).toBe(1);
  });

  it('marks API answers no-store, signed in or not', async () => {
    const { token } = await createOperator();
    for (const res of [
      await request(app).get('/trpc/health'),
      await request(app).get('/trpc/user.me'),
      await request(app).get('/api/admin/me').set('Authorization', `Bearer ${token}`),
      await request(app).get('/api/admin/users'),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses filter keys named after built-in object properties', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const res = await api.get('/accounts', { filter: { [key]: 'x' } });
      expect({ key, status: res.status, errors: res.body.errors }).toEqual({
        key,
        status: 400,
        errors: { filter: `Unknown filter: ${key}` },
      });
    }
  });

  describe('a sign-in code request', () => {
    let standIn: Server;
    const events: string[] = [];
    let answered: () => void = () => undefined;
    beforeAll(async () => {
      // a Bot API that holds its reply until the app has answered the player (or 2 s, when the app waits for it)
      standIn = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          events.push('message received');
          const reply = () => {
            if (res.headersSent) return;
            events.push('message sent');
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { message_id: 1 } }));
          };
          const fallback = setTimeout(reply, 2000);
          answered = () => {
            clearTimeout(fallback);
            reply();
          };
        });
      });
      await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => standIn.close(() => resolve())));

    it('answers before the bot sends the code, the same as for an unknown name', async () => {
      const env = { TELEGRAM_API_ROOT: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN };
      const app = newApp(env);
      await createPlayer({ username: 'real_player', usernameLower: 'real_player', messagePermission: true });

      const unknown = await request(app)
        .post('/trpc/auth.requestLoginCode')
        .send({ json: { username: 'nobody_plays_here' } });
      const real = await request(app)
        .post('/trpc/auth.requestLoginCode')
        .send({ json: { username: 'real_player' } });
      events.push('answer');
      expect(real.status).toBe(200);
      // the same but for the request's own random id
      const withoutId = (body: { result: { data: { json: Record<string, unknown> } } }) => ({
        ...body.result.data.json,
        requestId: typeof body.result.data.json.requestId,
      });
      expect(withoutId(real.body)).toEqual(withoutId(unknown.body));
      // the code does go out, after the answer
      await new Promise<void>((resolve) => {
        const wait = () => (events.includes('message received') ? resolve() : setTimeout(wait, 10));
        wait();
      });
      answered();
      expect(events.filter((e) => e !== 'message received')).toEqual(['answer', 'message sent']);
    });
  });
});
