import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import mongoose, { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { withDatabaseName } from './db/connect';
import { AccountModel } from './modules/accounts/account.model';
import { CategoryModel } from './modules/content/content.models';
import { JobLeaseModel } from './modules/jobs/jobLease.model';
import { BalanceModel, LedgerEntryModel } from './modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from './modules/missions/mission.models';
import { UserModel } from './modules/users/user.model';
import { createCoin, createPlayer } from '../test/factories';
import { expectLedgerMatchesBalances } from '../test/ledgerInvariant';
import { productProcessEnv } from '../test/productProcess';
import { tmaHeader } from '../test/telegram';

/**
 * Two production servers (the compiled server/dist/index.js, as `npm start` and the image run it), each a
 * process of its own on its own random port, against this file's database: what holds across requests must
 * hold across instances.
 */
const SERVER_DIR = path.resolve(__dirname, '..');
const OPS = { username: 'ops', password: 'a long operator password' };

interface Instance {
  base: string;
  logs: Array<Record<string, unknown>>;
}

/** Every server started, stopped at the end even when the other failed to start. */
const spawned: ChildProcess[] = [];

/** A mission as the console saves it: the reward is a decimal string. */
function saveMission(fields: Record<string, unknown>) {
  const mission = new MissionModel();
  mission.set({ link: 'https://example.com', ...fields });
  return mission.save();
}

function startInstance(mongoUrl: string): Promise<Instance> {
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/index.js'], {
    cwd: SERVER_DIR,
    env: productProcessEnv(mongoUrl, OPS),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  const logs: Instance['logs'] = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      if (entry.msg === 'listening') resolve({ base: `http://127.0.0.1:${entry.port as number}`, logs });
    });
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

let instances: Instance[] = [];

/** Polls until `done` holds, for up to 20 s. */
async function waitFor(done: () => Promise<boolean>) {
  for (let tries = 0; tries < 200; tries++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gave up waiting');
}
const pending = { entries: 0, approvals: 0 };
let recoveredPlayers: Types.ObjectId[] = [];
let recoveredCoin: Types.ObjectId;

beforeAll(async () => {
  // the production build, as `npm start` makes it
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: SERVER_DIR, stdio: 'pipe' });

  // what a crash left behind: credits recorded but not applied, and approvals not yet credited
  const coin = await createCoin();
  recoveredCoin = coin._id;
  const players = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
  recoveredPlayers = players.map((p) => p._id);
  for (const [i, player] of players.entries()) {
    for (let n = 0; n < 20; n++) {
      await LedgerEntryModel.create({
        user: player._id,
        coin: coin._id,
        amount: Number(toMicros('1.5')),
        reason: 'mining',
        idempotencyKey: `crash:${i}:${n}`,
        state: 'pending',
      });
      pending.entries++;
    }
  }
  const category = await CategoryModel.create({ title: 'Recovered' });
  for (const [i, player] of players.entries()) {
    const mission = await saveMission({ category: category._id, coin: coin._id, title: `Review ${i}`, reward: '4', verifyType: 'manual' });
    await UserMissionModel.create({
      user: player._id,
      mission: mission._id,
      category: category._id,
      coin: coin._id,
      reward: Number(toMicros('4')),
      status: 'done',
      doneAt: new Date(Date.now() - 60_000),
      awaitingCredit: true,
    });
    pending.approvals++;
  }

  // both at once, as `docker compose up` starts them
  const url = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
  instances = await Promise.all([startInstance(url), startInstance(url)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(spawned.map(stop));
});

describe('two server processes on one database', () => {
  it('their sweeps finish each pending entry and approval a crash left exactly once between them, and one super-admin exists', async () => {
    const sweepReports = () =>
      instances.flatMap((instance) =>
        instance.logs
          .filter((entry) => entry.msg === 'job finished interrupted operations')
          .map((entry) => entry.recovered as Record<string, number>),
      );
    // a sweep reports once its whole pass is done, which can be a moment after the records are
    await waitFor(
      async () =>
        (await LedgerEntryModel.countDocuments({ state: 'pending' })) === 0 &&
        !(await UserMissionModel.exists({ awaitingCredit: true })) &&
        sweepReports().reduce((sum, r) => sum + (r.pendingEntries ?? 0), 0) >= pending.entries,
    ).catch(() => undefined);
    const reports = sweepReports();
    // between them, the two instances finished every one exactly once
    expect(reports.reduce((sum, r) => sum + (r.pendingEntries ?? 0), 0)).toBe(pending.entries);
    expect(reports.reduce((sum, r) => sum + (r.missions ?? 0), 0)).toBe(pending.approvals);
    for (const player of recoveredPlayers) {
      const balances = await expectLedgerMatchesBalances(player);
      // 20 credits of 1.5 and one approved mission of 4, each once
      expect(balances.get(String(recoveredCoin))).toBe(toMicros('34'));
      expect((await UserModel.findById(player).lean())!.doneMissionsCount).toBe(1);
    }
    expect(await AccountModel.countDocuments({ username: OPS.username })).toBe(1);
    expect(await JobLeaseModel.findOne({ name: 'start-up' }).lean()).toMatchObject({ holder: null });
  });

  it('holds the console sign-in limit across both: 10 failures per address and username, wherever they land', async () => {
    // the limit counts in fixed 15-minute windows: a run that straddled a window's end would start counting afresh
    const toWindowEnd = 15 * 60_000 - (Date.now() % (15 * 60_000));
    if (toWindowEnd < 30_000) await new Promise((resolve) => setTimeout(resolve, toWindowEnd + 100));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 14; attempt++) {
      const instance = instances[attempt % 2]!;
      const response = await fetch(`${instance.base}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: OPS.username, password: `wrong password ${attempt}` }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429, 429, 429]);
    // the right password is refused too until the window ends, on either instance
    for (const instance of instances) {
      const response = await fetch(`${instance.base}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(OPS),
      });
      expect(response.status).toBe(429);
    }
  });

  it('credits one mission once when 100 claims of it are split across both', async () => {
    const [coin, category, player] = await Promise.all([createCoin(), CategoryModel.create({ title: 'Race' }), createPlayer()]);
    const mission = await saveMission({ category: category._id, coin: coin._id, title: 'Join us', reward: '2.5', verifyType: 'auto' });
    const authorization = tmaHeader({ user: { id: player.telegramId, first_name: 'Test', username: player.username } });
    const body = JSON.stringify({ json: { missionId: String(mission._id) } });

    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const instance = instances[i % 2]!;
        const response = await fetch(`${instance.base}/trpc/missions.claim`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body,
        });
        return { instance: i % 2, status: response.status };
      }),
    );
    const succeeded = answers.filter((a) => a.status === 200);
    expect(succeeded).toHaveLength(1);
    // every other claim was refused as a player's error, not a server failure, by both instances
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(new Set(answers.filter((a) => a.status !== 200).map((a) => a.instance))).toEqual(new Set([0, 1]));

    const balances = await expectLedgerMatchesBalances(player._id);
    expect(balances.get(String(coin._id))).toBe(toMicros('2.5'));
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'mission' })).toBe(1);
    expect(await UserMissionModel.findOne({ user: player._id, mission: mission._id }).lean()).toMatchObject({ status: 'done' });
    expect(await BalanceModel.countDocuments({ user: player._id })).toBe(1);
  });
  it('with one instance killed mid-sweep and left down, the other finishes its work within seconds', async () => {
    const [survivor, victim] = [instances[0]!, spawned[1]!];
    const exited = once(victim, 'exit');
    victim.kill('SIGKILL');
    await exited;
    // as if it died holding the money recovery's lease
    await JobLeaseModel.updateOne(
      { name: 'money-recovery' },
      { $set: { holder: 'killed-instance', heldUntil: new Date(Date.now() + 600) } },
      { upsert: true },
    );
    const [coin, player] = await Promise.all([createCoin(), createPlayer()]);
    await LedgerEntryModel.create({
      user: player._id,
      coin: coin._id,
      amount: Number(toMicros('14')),
      reason: 'gift',
      idempotencyKey: `left-by-killed:${player.id}`,
    });
    const started = Date.now();
    await waitFor(async () => (await LedgerEntryModel.countDocuments({ state: 'pending' })) === 0);
    console.log(
      `the survivor finished the killed instance's pending entry ${Date.now() - started} ms after it was left (sweep every 300 ms, grace 1 s)`,
    );
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('14'));
    // the sweep logs what it finished once its whole pass is over, a moment after the entry is posted
    await waitFor(async () => survivor.logs.some((entry) => entry.msg === 'job finished interrupted operations'));
  });
});
