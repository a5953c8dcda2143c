/**
 * `npm run bench`: the product's hot calls against the embedded database, each beside two Express + mongoose twins
 * doing the same necessary work (bareRoutes.ts lists it), in the same run, over loopback: the bare twin (nothing but
 * the routes) and the twin behind the product's own answer layers (security headers, compression, metrics, the request
 * log). The product against the first is what everything around the work costs; against the second, what tRPC costs.
 *
 * Knobs (environment): BENCH_PLAYERS (default 10000), BENCH_REQUESTS per measurement (default 2000),
 * BENCH_CONCURRENCY (default 16), BENCH_MAX_SECONDS per measurement (default 20), BENCH_ROUNDS (default 6: the
 * measurement's requests split into that many rounds of the three servers, interleaved; the ratios printed are the
 * median of the rounds' ratios, with their range).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import mongoose from 'mongoose';
import { createApp } from '../src/app';
import { withDatabaseName } from '../src/db/connect';
import { seedDemoData, seedPlayers, type SeededPlayer } from '../src/modules/demo/demo.service';
import { createLogger } from '../src/lib/logger';
import { AccountModel } from '../src/modules/accounts/account.model';
import { MissionModel } from '../src/modules/missions/mission.models';
import { UserModel } from '../src/modules/users/user.model';
import { consoleToken } from '../src/modules/accounts/operatorSecurity.service';
import { signInitData } from '../test/telegram';
import { databaseCommandsDuring } from '../test/commandCount';
import { bareApp, layeredTwinApp } from './bareRoutes';
import { benchEnv, BOT_TOKEN, listen, load as loadWith, percentile, send, startDatabase, type Call, type Run } from './loopback';

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const MAX_MS = Number(process.env.BENCH_MAX_SECONDS ?? 20) * 1000;
const WARMUP = 200;
/** Rounds per measurement: six runs each side in each of the six orders once. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

const load = (port: number, count: number, call: (i: number) => Call, maxMs = MAX_MS) =>
  loadWith(port, count, call, { maxMs, concurrency: CONCURRENCY });

interface Measurement {
  requests: number;
  failures: number;
  firstFailure?: string;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

function summarize(runs: Run[]): Measurement {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  return {
    requests: latencies.length,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    firstFailure: runs.find((r) => r.firstFailure)?.firstFailure,
    seconds: Number(seconds.toFixed(2)),
    rps: Math.round(latencies.length / seconds),
    p50: Number(percentile(latencies, 50).toFixed(2)),
    p99: Number(percentile(latencies, 99).toFixed(2)),
  };
}

/** Database commands one call sends, counted with the driver's command monitoring while nothing else runs. */
async function roundTrips(port: number, call: Call): Promise<{ count: number; commands: string[]; failure?: string }> {
  const agent = new http.Agent({ keepAlive: false });
  const { commands, result: res } = await databaseCommandsDuring(() => send(agent, port, call));
  return { count: commands.length, commands, ...(res.status >= 300 ? { failure: `${res.status} ${res.body.slice(0, 200)}` } : {}) };
}

/** Hands out seeded players in order, so each claim is some player's first. */
function playerPool(players: SeededPlayer[]) {
  let taken = 0;
  return (count: number) => {
    if (taken + count > players.length) throw new Error(`The benchmark needs more players: raise BENCH_PLAYERS above ${taken + count}`);
    const slice = players.slice(taken, taken + count);
    taken += count;
    return slice;
  };
}

async function main() {
  const env = benchEnv();
  const logger = createLogger(env.LOG_LEVEL);

  const database = await startDatabase();
  await mongoose.connect(withDatabaseName(database.uri, 'bench'), { monitorCommands: true });
  await mongoose.connection.dropDatabase();
  await mongoose.connection.syncIndexes();
  console.log(`database: ${database.kind}; seeding demo data and ${PLAYERS} players…`);
  const seedStarted = performance.now();
  await seedDemoData(logger);
  const players = await seedPlayers(PLAYERS);
  console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (${await UserModel.countDocuments()} players)`);

  const operator = await AccountModel.create({
    username: 'bench-operator',
    passwordHash: await bcrypt.hash('bench-operator-password', 4),
    permissions: ['*'],
  });
  const operatorToken = await consoleToken(operator, env.JWT_SECRET);
  const autoStar = await MissionModel.findOne({ verifyType: 'auto', mustDone: true, enabled: true }).lean();
  if (!autoStar) throw new Error('The demo data has no Auto ⭐ mission to claim');
  const missionId = String(autoStar._id);

  const product = await listen(createApp({ env, logger, clientDist: '/nonexistent', adminDist: '/nonexistent' }));
  const layered = await listen(layeredTwinApp(env, logger));
  const bare = await listen(bareApp(env));

  // launches signed once, before timing: the client's signing is not the server's work
  const launch = (player: SeededPlayer) =>
    `tma ${signInitData({ user: { id: player.telegramId, first_name: player.firstName, last_name: player.lastName, username: player.username, language_code: 'en' } }, BOT_TOKEN)}`;
  const take = playerPool(players);
  const homePlayers = take(Math.min(1000, Math.floor(players.length / 4))).map((p) => ({ ...p, header: launch(p) }));
  const claimBody = JSON.stringify({ json: { missionId } });

  const homeCall = (i: number): Call => ({
    method: 'GET',
    path: '/trpc/home.get',
    headers: { authorization: homePlayers[i % homePlayers.length]!.header },
  });
  const bareHomeCall = (i: number): Call => ({
    method: 'GET',
    path: '/bare/home',
    headers: { authorization: homePlayers[i % homePlayers.length]!.header },
  });
  const usersPath = `/api/admin/users?sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,24]')}`;
  const usersCall = (): Call => ({ method: 'GET', path: usersPath, headers: { authorization: `Bearer ${operatorToken}` } });
  const bareUsersCall = (): Call => ({ method: 'GET', path: '/bare/users?skip=0&limit=25' });

  type Side = 'product' | 'layered' | 'bare';
  const ports: Record<Side, number> = { product: product.port, layered: layered.port, bare: bare.port };
  const rows: Array<{ name: string; rounds: Array<Record<Side, number>> } & Record<Side, Measurement>> = [];
  /**
   * Warm-up, then ROUNDS short rounds, each running the three sides one after another in one of the six orders (each
   * side takes each place equally often): whatever else the machine does, and a claim growing the collections every
   * later call scans, weighs on the three alike within a round, so each round's ratio compares like with like.
   */
  const measure = async (
    name: string,
    calls: Record<Side, (i: number) => Call>,
    count = REQUESTS,
    before?: Record<Side, () => Promise<unknown>>,
  ) => {
    const sides: Side[] = ['product', 'layered', 'bare'];
    for (const side of sides) await load(ports[side], Math.min(WARMUP, count), calls[side]);
    const orders: Side[][] = sides.flatMap((first) =>
      sides.filter((s) => s !== first).map((second) => [first, second, sides.find((s) => s !== first && s !== second)!]),
    );
    const share = Math.ceil(count / ROUNDS);
    const runs: Record<Side, Run[]> = { product: [], layered: [], bare: [] };
    const rounds: Array<Record<Side, number>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rps = { product: 0, layered: 0, bare: 0 };
      for (const side of orders[round % orders.length]!) {
        await before?.[side]();
        const run = await load(ports[side], share, calls[side], MAX_MS / ROUNDS);
        runs[side].push(run);
        rps[side] = run.latencies.length / run.seconds;
      }
      rounds.push(rps);
    }
    rows.push({ name, rounds, product: summarize(runs.product), layered: summarize(runs.layered), bare: summarize(runs.bare) });
    console.log(`  ${name}: done`);
  };

  // the players opened the app a moment ago (a claimer does before tapping Claim): their launch refresh is done
  const openedTheApp = (opened: SeededPlayer[]) =>
    UserModel.updateMany({ telegramId: { $in: opened.map((p) => p.telegramId) } }, { $set: { lastSeenAt: new Date() } });
  console.log(`measuring: ${REQUESTS} requests each (at most ${MAX_MS / 1000} s), ${CONCURRENCY} in flight, keep-alive, loopback`);
  // every home player launches once so the measured calls are returning players, as in real use
  await load(product.port, homePlayers.length, homeCall);
  // and has opened the app within the minute before each side's share: no side pays the once-a-minute refresh of the
  // player from the launch (measured apart below) for calls another side made the minute before
  const openedHome = () => openedTheApp(homePlayers);
  await measure('home.get (player home)', { product: homeCall, layered: bareHomeCall, bare: bareHomeCall }, REQUESTS, {
    product: openedHome,
    layered: openedHome,
    bare: openedHome,
  });

  // each side's claimers: the warm-up's, each round's share (rounded up), and one spare; every claim a player's first
  const claimCount = Math.min(REQUESTS, Math.floor((players.length - homePlayers.length) / 3) - WARMUP - ROUNDS - 2);
  const claimers = () => take(WARMUP + Math.ceil(claimCount / ROUNDS) * ROUNDS + 1).map((p) => ({ ...p, header: launch(p) }));
  const productClaimers = claimers();
  const layeredClaimers = claimers();
  const bareClaimers = claimers();
  let productClaimIndex = 0;
  let layeredClaimIndex = 0;
  let bareClaimIndex = 0;
  const bareClaim = (header: string): Call => ({
    method: 'POST',
    path: '/bare/claim',
    headers: { authorization: header },
    body: JSON.stringify({ missionId }),
  });
  await measure(
    'missions.claim (first claim, Auto ⭐)',
    {
      product: () => ({
        method: 'POST',
        path: '/trpc/missions.claim',
        headers: { authorization: productClaimers[productClaimIndex++]!.header },
        body: claimBody,
      }),
      layered: () => bareClaim(layeredClaimers[layeredClaimIndex++]!.header),
      bare: () => bareClaim(bareClaimers[bareClaimIndex++]!.header),
    },
    claimCount,
    {
      product: () => openedTheApp(productClaimers.slice(productClaimIndex)),
      layered: () => openedTheApp(layeredClaimers.slice(layeredClaimIndex)),
      bare: () => openedTheApp(bareClaimers.slice(bareClaimIndex)),
    },
  );
  await measure('console users list (25, newest first)', { product: usersCall, layered: bareUsersCall, bare: bareUsersCall });

  // the first launch in a minute also refreshes the player from Telegram's data; the next ones only read
  const homeRefreshTrips = await roundTrips(product.port, homeCall(0));
  const homeTrips = await roundTrips(product.port, homeCall(0));
  const bareHomeTrips = await roundTrips(bare.port, bareHomeCall(0));
  const usersTrips = await roundTrips(product.port, usersCall());
  const bareUsersTrips = await roundTrips(bare.port, bareUsersCall());
  const claimProbe = take(2);
  await openedTheApp(claimProbe);
  const claimTrips = await roundTrips(product.port, {
    method: 'POST',
    path: '/trpc/missions.claim',
    headers: { authorization: launch(claimProbe[0]!) },
    body: claimBody,
  });
  const bareClaimTrips = await roundTrips(bare.port, bareClaim(launch(claimProbe[1]!)));

  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const line = '-'.repeat(40 + 3 * 31 + 2 * 20);
  /** The product's req/s over the twin's in each round: their median, and the lowest and highest. */
  const ratios = (rounds: Array<Record<Side, number>>, twin: Side) => {
    const each = rounds.map((r) => r.product / Math.max(r[twin], 1)).sort((a, b) => a - b);
    const mid = each.length / 2;
    const median = each.length % 2 ? each[Math.floor(mid)]! : (each[mid - 1]! + each[mid]!) / 2;
    const round2 = (x: number) => Number(x.toFixed(2));
    return { median: round2(median), lowest: round2(each[0]!), highest: round2(each.at(-1)!) };
  };
  const shown = (r: ReturnType<typeof ratios>) => `${r.median.toFixed(2)}x ${r.lowest.toFixed(2)}-${r.highest.toFixed(2)}`;
  const side = (m: Measurement) => `${pad(m.rps, 7)}${pad(m.p50, 8)}${pad(m.p99, 8)}${pad(m.failures, 5)} |`;
  console.log(`\n${line}`);
  const heading = ` req/s  p50 ms  p99 ms fail |`;
  console.log(
    `${''.padEnd(40)}${'product'.padEnd(31)}${'twin with the layers'.padEnd(31)}${'bare twin'.padEnd(31)} product / twin: median of ${ROUNDS} rounds, range`,
  );
  console.log(`${'call'.padEnd(40)}${heading.repeat(3)}${pad('layered', 20)}${pad('bare', 20)}`);
  console.log(line);
  for (const { name, rounds, product: p, layered: l, bare: b } of rows) {
    console.log(
      `${name.padEnd(40)}${side(p)}${side(l)}${side(b)}${pad(shown(ratios(rounds, 'layered')), 20)}${pad(shown(ratios(rounds, 'bare')), 20)}`,
    );
  }
  console.log(line);
  console.log(
    "layered twin: the product's answer layers (security headers, compression, metrics, request log) + the routes; bare twin: the routes alone",
  );
  console.log(`database commands per call, product / bare (commands sent together with Promise.all share one wait):`);
  console.log(`  home.get        ${homeTrips.count} / ${bareHomeTrips.count}   [${homeTrips.commands.join(', ')}]`);
  console.log(
    `  home.get, first launch in a minute (refreshes the player): ${homeRefreshTrips.count}   [${homeRefreshTrips.commands.join(', ')}]`,
  );
  console.log(`  missions.claim  ${claimTrips.count} / ${bareClaimTrips.count}   [${claimTrips.commands.join(', ')}]`);
  console.log(`  users list      ${usersTrips.count} / ${bareUsersTrips.count}   [${usersTrips.commands.join(', ')}]`);
  for (const [name, probe] of Object.entries({
    'home.get': homeTrips,
    'home.get (refresh)': homeRefreshTrips,
    'bare home': bareHomeTrips,
    'missions.claim': claimTrips,
    'bare claim': bareClaimTrips,
    'users list': usersTrips,
    'bare users list': bareUsersTrips,
  })) {
    if (probe.failure) console.log(`  round-trip probe of ${name} failed: ${probe.failure}`);
  }
  for (const row of rows)
    for (const side of ['product', 'layered', 'bare'] as const)
      if (row[side].firstFailure) console.log(`  first failure, ${row.name} (${side}): ${row[side].firstFailure}`);

  const results = {
    at: new Date().toISOString(),
    node: process.version,
    database: database.kind,
    players: await UserModel.countDocuments(),
    concurrency: CONCURRENCY,
    requestsPerMeasurement: REQUESTS,
    rounds: ROUNDS,
    // product req/s over each twin's, round by round (1 is as fast as the twin): median, lowest, highest
    rows: rows.map((r) => ({ ...r, productOverLayeredTwin: ratios(r.rounds, 'layered'), productOverBareTwin: ratios(r.rounds, 'bare') })),
    roundTrips: {
      home: homeTrips,
      homeWithRefresh: homeRefreshTrips,
      bareHome: bareHomeTrips,
      claim: claimTrips,
      bareClaim: bareClaimTrips,
      users: usersTrips,
      bareUsers: bareUsersTrips,
    },
  };
  const out = path.resolve(__dirname, '..', '..', 'bench-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to ${path.join(out, 'latest.json')}`);

  await product.close();
  await layered.close();
  await bare.close();
  await mongoose.disconnect();
  database.stop();
  const failed = rows.some((r) => r.product.failures || r.layered.failures || r.bare.failures);
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
