import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_BOT_TOKEN } from '../../test/helpers';
import { tmaHeader } from '../../test/telegram';
import { signTonProof, testWallet } from '../../test/tonWallet';

/**
 * `npm start` on its embedded database, as a process of its own: what a player and an operator did is still there
 * after a clean stop, and after a `kill -9` that comes after the data file's next write (it is written every second).
 */
const SERVER_DIR = path.resolve(__dirname, '../..');
const folder = mkdtempSync(path.join(tmpdir(), 'gift-embedded-'));
const dataFile = path.join(folder, 'embedded-database.json');
const DEMO_OPERATOR = { username: 'admin', password: 'admin-demo-password' };
const PLAYER = 770_001;

interface Running {
  child: ChildProcess;
  base: string;
  /** The start's log line about the embedded database: where its data lives, and how many records it read back. */
  database: { dataFile: string; restored: number | null };
}
const spawned = new Set<ChildProcess>();

function start(extra: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: '0',
      EMBEDDED_DATA_FILE: dataFile,
      TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
      // Telegram and the chain are nowhere: the stand-in is not started, the bot keeps trying
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
      TON_API_ROOT: 'http://127.0.0.1:9',
      PUBLIC_URL: 'https://gift.test',
      LOG_LEVEL: 'info',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`the product exited (${code ?? signal}) before it was ready:\n${stderr}`)));
    let database: Running['database'] | null = null;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg?: string; port?: number } & Running['database'];
      if (entry.msg?.startsWith('started embedded database')) database = { dataFile: entry.dataFile, restored: entry.restored };
      if (entry.msg === 'listening') resolve({ child, base: `http://127.0.0.1:${entry.port}`, database: database! });
    });
  });
}

async function stop(running: Running, signal: 'SIGTERM' | 'SIGKILL') {
  const exited = once(running.child, 'exit');
  running.child.kill(signal);
  await exited;
}

async function call(running: Running, pathname: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(`${running.base}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

const launch = (id: number, username: string) => ({ authorization: tmaHeader({ user: { id, first_name: 'Kept', username } }) });
const player = launch(PLAYER, 'kept_player');

async function asPlayer(running: Running, procedure: string, input?: unknown, headers = player) {
  const isQuery = ['home.get', 'withdrawals.coins', 'withdrawals.history'].includes(procedure);
  const answer = isQuery
    ? await call(
        running,
        `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`,
        {
          headers,
        },
      )
    : await call(running, `/trpc/${procedure}`, { method: 'POST', headers, body: { json: input ?? null } });
  return (answer.result as { data: { json: unknown } }).data.json;
}

async function asOperator(running: Running, pathname: string) {
  const { token } = (await call(running, '/api/admin/login', { method: 'POST', body: DEMO_OPERATOR })) as { token: string };
  const response = await fetch(`${running.base}/api/admin${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}`);
  return (await response.json()) as Array<Record<string, unknown>>;
}

/** What the player and an operator see: the player's withdrawals, and the players whose name starts with "kept". */
async function whatIsKept(running: Running) {
  const history = (await asPlayer(running, 'withdrawals.history', {})) as { items: Array<{ id: string; amount: string; status: string }> };
  const players = await asOperator(running, `/users?filter=${encodeURIComponent(JSON.stringify({ q: 'kept' }))}`);
  return {
    withdrawals: history.items.map(({ id, amount, status }) => ({ id, amount, status })),
    players: players
      .map(({ username, doneMissionsCount }) => ({ username, doneMissionsCount }))
      .sort((a, b) => String(a.username).localeCompare(String(b.username))),
  };
}

afterAll(async () => {
  for (const child of spawned) child.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});

it('keeps a player, a claim and a withdrawal across a clean stop and a kill -9, and FRESH_DEMO=1 starts afresh', async () => {
  let running = await start({ FRESH_DEMO: '1' });
  expect(running.database).toEqual({ dataFile, restored: null });
  // the demo's second operator signs in: what waits for a second, independent person can be tried
  await call(running, '/api/admin/login', { method: 'POST', body: { username: 'approver', password: 'approver-demo-password' } });

  // a player arrives, claims the welcome bonus (100 GIFT), links a wallet and withdraws it
  await asPlayer(running, 'home.get');
  const missions = (await asOperator(running, '/missions?range=[0,99]')) as unknown as Array<{ id: string; title: string }>;
  const welcome = missions.find((mission) => mission.title === 'Claim your welcome bonus')!;
  await asPlayer(running, 'missions.claim', { missionId: welcome.id });
  const wallet = testWallet();
  const { payload } = (await asPlayer(running, 'wallet.proofPayload')) as { payload: string };
  await asPlayer(running, 'wallet.link', signTonProof(wallet, { payload, domain: 'gift.test', timestamp: Math.floor(Date.now() / 1000) }));
  const coins = (await asPlayer(running, 'withdrawals.coins')) as Array<{ coinId: string; symbol: string }>;
  const gift = coins.find((coin) => coin.symbol === 'GIFT')!;
  const withdrawal = (await asPlayer(running, 'withdrawals.request', {
    coinId: gift.coinId,
    amount: '100',
    idempotencyKey: 'kept-withdrawal',
  })) as {
    id: string;
  };
  const before = await whatIsKept(running);
  expect(before).toEqual({
    withdrawals: [{ id: withdrawal.id, amount: '100', status: 'pending' }],
    players: [{ username: 'kept_player', doneMissionsCount: 1 }],
  });

  // a clean stop writes the data file; the next start reads it back instead of seeding a new demo
  await stop(running, 'SIGTERM');
  expect(existsSync(dataFile)).toBe(true);
  running = await start();
  expect(running.database.restored).toBeGreaterThan(0);
  expect(await whatIsKept(running)).toEqual(before);
  await expect(asPlayer(running, 'missions.claim', { missionId: welcome.id })).rejects.toThrow(/ALREADY_DONE|already/i);

  // a newcomer arrives; a kill -9 after the next write of the data file keeps them
  await asPlayer(running, 'home.get', undefined, launch(PLAYER + 1, 'kept_newcomer'));
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  await stop(running, 'SIGKILL');
  running = await start();
  expect(await whatIsKept(running)).toEqual({
    withdrawals: before.withdrawals,
    players: [{ username: 'kept_newcomer', doneMissionsCount: 0 }, ...before.players],
  });
  await stop(running, 'SIGTERM');

  // FRESH_DEMO=1 forgets it all
  running = await start({ FRESH_DEMO: '1' });
  expect(running.database.restored).toBeNull();
  // (reading the player's withdrawals is their first launch on the fresh demo)
  expect(await whatIsKept(running)).toEqual({ withdrawals: [], players: [{ username: 'kept_player', doneMissionsCount: 0 }] });
  await stop(running, 'SIGTERM');
}, 400_000);
