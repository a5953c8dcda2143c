/**
 * `npm run bench:growth`: how the product's calls cost as the player base grows. For each size (1k, 10k and 50k
 * players by default) it fills a fresh database on the embedded engine, in a process of its own, with the demo
 * data and that many players, each with a month of history (a gift in the ledger, a done mission, and for one in
 * ten a pending withdrawal), lets the sweep's dashboard work run once, as a running product's sweep would have,
 * then measures p50 and p95 of the player's and the operator's calls. It prints one table, with the ratio of
 * each figure from the smallest size to the largest.
 *
 * Knobs (environment): GROWTH_SIZES (default 1000,10000,50000), GROWTH_REQUESTS per call (default 100),
 * GROWTH_CONCURRENCY (default 4), GROWTH_MAX_SECONDS per call (default 20).
 */
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import mongoose from 'mongoose';
import { toMicros } from '@gift/shared';
import { createApp } from '../src/app';
import { withDatabaseName } from '../src/db/connect';
import { seedDemoData, seedPlayers, type SeededPlayer } from '../src/modules/demo/demo.service';
import { createLogger } from '../src/lib/logger';
import { AccountModel } from '../src/modules/accounts/account.model';
import { GiftCoinModel } from '../src/modules/coins/giftCoin.model';
import { refreshLiveFigures, rollUpClosedDays } from '../src/modules/dashboard/dashboard.service';
import { BalanceModel, LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { UserModel } from '../src/modules/users/user.model';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';
import { consoleToken } from '../src/modules/accounts/operatorSecurity.service';
import { signInitData } from '../test/telegram';
import { benchEnv, BOT_TOKEN, listen, load, percentile, startDatabase, type Call } from './loopback';

const SIZES = (process.env.GROWTH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const REQUESTS = Number(process.env.GROWTH_REQUESTS ?? 100);
const CONCURRENCY = Number(process.env.GROWTH_CONCURRENCY ?? 4);
const MAX_MS = Number(process.env.GROWTH_MAX_SECONDS ?? 20) * 1000;
const DAY_MS = 86_400_000;
const BATCH = 2000;

interface Figures {
  p50: number;
  p95: number;
  failures: number;
}

/** A month of history for every player, written in bulk: what makes the collections grow with the player base. */
async function addHistory(players: SeededPlayer[], now: Date) {
  const gift = (await GiftCoinModel.findOne({ symbol: 'GIFT' }).lean())!;
  const mission = (await MissionModel.findOne({ verifyType: 'auto', mustDone: false, enabled: true }).lean())!;
  const amount = Number(toMicros('10'));
  for (let start = 0; start < players.length; start += BATCH) {
    const batch = players
      .slice(start, start + BATCH)
      .map((player, offset) => ({ player, when: new Date(now.getTime() - ((start + offset) % 30) * DAY_MS - 3_600_000) }));
    await LedgerEntryModel.insertMany(
      batch.map(({ player, when }) => ({
        user: player.id,
        coin: gift._id,
        amount,
        reason: 'gift',
        idempotencyKey: `growth:${player.id}`,
        state: 'posted',
        postedAt: when,
        keyReleased: true,
        createdAt: when,
      })),
      { ordered: false },
    );
    await BalanceModel.insertMany(
      batch.map(({ player }) => ({ user: player.id, coin: gift._id, amount })),
      { ordered: false },
    );
    await UserMissionModel.insertMany(
      batch.map(({ player, when }) => ({
        user: player.id,
        mission: mission._id,
        category: mission.category,
        coin: gift._id,
        reward: mission.reward,
        status: 'done',
        startedAt: when,
        claimedAt: when,
        doneAt: when,
        createdAt: when,
      })),
      { ordered: false },
    );
    await WithdrawalModel.insertMany(
      batch
        .filter((_, offset) => (start + offset) % 10 === 0)
        .map(({ player, when }) => ({
          user: player.id,
          coin: gift._id,
          amount: Number(toMicros('1')),
          address: `0:${randomBytes(32).toString('hex')}`,
          status: 'pending',
          idempotencyKey: `growth:${player.id}`,
          createdAt: when,
        })),
      { ordered: false },
    );
  }
}

async function measureSize(uri: string, size: number): Promise<Map<string, Figures>> {
  const env = benchEnv();
  const logger = createLogger(env.LOG_LEVEL);
  await mongoose.connect(withDatabaseName(uri, `growth_${size}`));
  await mongoose.connection.dropDatabase();
  await mongoose.connection.syncIndexes();
  const started = Date.now();
  await seedDemoData(logger);
  // the players the calls sign in as come first; the rest are the player base
  const players = await seedPlayers(size);
  const now = new Date();
  await addHistory(players, now);
  await rollUpClosedDays(now);
  await refreshLiveFigures(now, { force: true });
  console.log(
    `${size} players: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s (${await UserModel.estimatedDocumentCount()} players)`,
  );

  const operator = await AccountModel.create({
    username: 'growth-operator',
    passwordHash: await bcrypt.hash('growth-operator-password', 4),
    permissions: ['*'],
  });
  const operatorAuth = {
    authorization: `Bearer ${await consoleToken(operator, env.JWT_SECRET)}`,
  };
  const star = (await MissionModel.findOne({ verifyType: 'auto', mustDone: true, enabled: true }).lean())!;
  const product = await listen(createApp({ env, logger, clientDist: '/nonexistent', adminDist: '/nonexistent' }));
  const launch = (player: SeededPlayer) => ({
    authorization: `tma ${signInitData({ user: { id: player.telegramId, first_name: player.firstName, last_name: player.lastName, username: player.username, language_code: 'en' } }, BOT_TOKEN)}`,
  });
  const readers = players.slice(0, 200).map(launch);
  const claimers = players.slice(200, 200 + REQUESTS + 20).map(launch);
  const query = (params: Record<string, unknown>) =>
    Object.entries(params)
      .map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`)
      .join('&');
  const someone = players[size - 1]!.id;

  const calls: Array<[string, (i: number) => Call]> = [
    ['home', (i) => ({ method: 'GET', path: '/trpc/home.get', headers: readers[i % readers.length] })],
    ['currency', (i) => ({ method: 'GET', path: '/trpc/home.currency', headers: readers[i % readers.length] })],
    ['profile', (i) => ({ method: 'GET', path: '/trpc/user.me', headers: readers[i % readers.length] })],
    [
      'first claim',
      (i) => ({
        method: 'POST',
        path: '/trpc/missions.claim',
        headers: claimers[i]!,
        body: JSON.stringify({ json: { missionId: String(star._id) } }),
      }),
    ],
    ['dashboard', () => ({ method: 'GET', path: '/api/admin/dashboard', headers: operatorAuth })],
    [
      'users list',
      () => ({ method: 'GET', path: `/api/admin/users?${query({ sort: ['createdAt', 'DESC'], range: [0, 24] })}`, headers: operatorAuth }),
    ],
    [
      'pending withdrawals',
      () => ({
        method: 'GET',
        path: `/api/admin/withdraws?${query({ filter: { status: 'pending' }, sort: ['createdAt', 'ASC'], range: [0, 24] })}`,
        headers: operatorAuth,
      }),
    ],
    [
      "a player's ledger",
      () => ({
        method: 'GET',
        path: `/api/admin/ledger-entries?${query({ filter: { user: someone }, sort: ['createdAt', 'DESC'], range: [0, 24] })}`,
        headers: operatorAuth,
      }),
    ],
  ];
  const results = new Map<string, Figures>();
  // every player the calls sign in as has opened the app once (their first launch refresh is not measured)
  await load(product.port, readers.length, (i) => ({ method: 'GET', path: '/trpc/home.get', headers: readers[i]! }), {
    maxMs: MAX_MS,
    concurrency: CONCURRENCY,
  });
  await load(product.port, claimers.length, (i) => ({ method: 'GET', path: '/trpc/home.get', headers: claimers[i]! }), {
    maxMs: MAX_MS,
    concurrency: CONCURRENCY,
  });
  for (const [name, call] of calls) {
    if (name !== 'first claim') await load(product.port, 10, call, { maxMs: MAX_MS, concurrency: CONCURRENCY });
    const run = await load(product.port, REQUESTS, call, { maxMs: MAX_MS, concurrency: CONCURRENCY });
    const latencies = run.latencies.sort((a, b) => a - b);
    results.set(name, { p50: percentile(latencies, 50), p95: percentile(latencies, 95), failures: run.failures });
    if (run.failures) console.log(`  ${name}: ${run.failures} failures, first: ${run.firstFailure}`);
  }
  await product.close();
  await mongoose.connection.dropDatabase();
  await mongoose.disconnect();
  return results;
}

async function main() {
  const database = await startDatabase();
  console.log(`database: ${database.kind}; sizes ${SIZES.join(', ')}; ${REQUESTS} requests per call, ${CONCURRENCY} in flight`);
  const bySize = new Map<number, Map<string, Figures>>();
  try {
    for (const size of SIZES) bySize.set(size, await measureSize(database.uri, size));
  } finally {
    database.stop();
  }
  const [smallest, largest] = [SIZES[0]!, SIZES[SIZES.length - 1]!];
  const names = [...bySize.get(smallest)!.keys()];
  const ms = (value: number) => value.toFixed(1);
  const header = [
    'call',
    ...SIZES.map((size) => `${size.toLocaleString('en')}: p50 / p95 ms`),
    `p50 ${largest / 1000}k / ${smallest / 1000}k`,
  ];
  const rows = names.map((name) => {
    const figures = SIZES.map((size) => bySize.get(size)!.get(name)!);
    const ratio = figures[figures.length - 1]!.p50 / figures[0]!.p50;
    return [
      name,
      ...figures.map((f) => `${ms(f.p50)} / ${ms(f.p95)}${f.failures ? ` (${f.failures} failed)` : ''}`),
      `${ratio.toFixed(2)}×`,
    ];
  });
  console.log(`\n| ${header.join(' | ')} |\n| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

void main().then(() => process.exit(0));
