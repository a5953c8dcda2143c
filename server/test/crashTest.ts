import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { FAULT_POINTS, type FaultPoint } from '../src/lib/faults';
import { AppConfigModel } from '../src/modules/config/appConfig.model';
import { GiftCoinModel } from '../src/modules/coins/giftCoin.model';
import { CategoryModel } from '../src/modules/content/content.models';
import { MiningSessionModel } from '../src/modules/mining/miningSession.model';
import { LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { StakeModel, StakingCoinModel } from '../src/modules/staking/staking.models';
import { UserModel } from '../src/modules/users/user.model';
import { WalletLinkModel } from '../src/modules/wallet/wallet.models';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';
import { findings, type Findings } from './crashReconcile';
import { productProcessEnv } from './productProcess';
import { tmaHeader } from './telegram';
import { enrolTotp, totpCodeAt } from './totp';

/**
 * The crash test: the product (the compiled server, as `npm start` runs it) in a process of its own against a
 * database in another process, under a mixed money load, killed with SIGKILL exactly at every fault point and
 * at random moments, restarted each time; clients retry what was not answered with the same keys, as the apps
 * do. Then the sweep runs and every record is reconciled against the ledger (`crashReconcile.ts`).
 */

const SERVER_DIR = path.resolve(__dirname, '..');
/** Its own build, so a test building dist/index.js beside it never rewrites the file this one runs. */
const BUILD = 'dist/crash-test/index.js';
const OPERATOR = { username: 'crash-ops', password: 'a long crash test password' };
const KILL_LINE = /^fault point (\S+): killing the process/;

export interface CrashTestOptions {
  /** `mongodb://…/<database>`: the database the product and the test share, in another process. */
  mongoUrl: string;
  /** Seconds of mixed load under random kills, after the walk through every fault point. */
  budgetSeconds: number;
  players?: number;
  workers?: number;
  log?: (line: string) => void;
}

export interface CrashTestReport {
  findings: Findings;
  killsAtPoint: Record<string, number>;
  randomKills: number;
  operations: Record<string, { acknowledged: number; refused: number }>;
  seconds: number;
}

// ---------------------------------------------------------------------------------------------------------
// The product's process, restarted whenever it dies

interface Running {
  child: ChildProcess;
  base: string;
  exited: Promise<void>;
}

class ProductProcess {
  private armed: string[] = [];
  private current: Promise<Running> | null = null;
  private stopping = false;
  readonly killsAtPoint: Record<string, number> = {};
  randomKills = 0;
  private readonly spawned = new Set<ChildProcess>();

  constructor(
    private readonly mongoUrl: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The running server, starting or restarting it as needed. */
  get(): Promise<Running> {
    this.current ??= this.start();
    return this.current;
  }

  /** Restarts the server (SIGTERM, not counted as a crash) with only these fault points armed. */
  async arm(points: string[]) {
    this.armed = points;
    const running = this.current ? await this.current.catch(() => null) : null;
    this.current = null;
    if (running) {
      running.child.kill('SIGTERM');
      await running.exited;
    }
    await this.get();
  }

  /** `kill -9` at a random moment. */
  async killNow() {
    const running = await this.get();
    if (running.child.exitCode !== null || running.child.signalCode !== null) return;
    this.randomKills++;
    running.child.kill('SIGKILL');
    await running.exited;
  }

  async stop() {
    this.stopping = true;
    await Promise.all(
      [...this.spawned].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }),
    );
  }

  private start(): Promise<Running> {
    const child = spawn(process.execPath, ['--enable-source-maps', BUILD], {
      cwd: SERVER_DIR,
      // fault points are never armed in production; everything else is configured as in production
      env: productProcessEnv(this.mongoUrl, OPERATOR, { NODE_ENV: 'test', GIFT_FAULT_POINTS: this.armed.join(',') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.spawned.add(child);
    let stderr = '';
    let port: number | null = null;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (_code, signal) => {
        this.spawned.delete(child);
        const killedAt = KILL_LINE.exec(stderr.split('\n').find((line) => KILL_LINE.test(line)) ?? '')?.[1];
        if (killedAt) {
          this.killsAtPoint[killedAt] = (this.killsAtPoint[killedAt] ?? 0) + 1;
          // the restart no longer stops there: the operation and its retry must get through
          this.armed = this.armed.filter((point) => point !== killedAt);
          this.log(`  killed at ${killedAt}`);
        }
        if (signal === 'SIGKILL' && !this.stopping) {
          // the next request restarts it
          this.current = null;
        }
        resolve();
      });
    });
    return new Promise<Running>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      void exited.then(() => {
        if (port === null) reject(new Error(`the server exited before listening:\n${stderr.slice(-2000)}`));
      });
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!line.startsWith('{')) return;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === 'listening' && port === null) {
          port = entry.port as number;
          resolve({ child, base: `http://127.0.0.1:${port}`, exited });
        }
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Clients that retry what was not answered, with the same keys

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** How many times the request went unanswered (the server died or could not reach the database) first. */
  retries: number;
}

class Clients {
  operatorToken = '';
  /** The key of the operator's two-step sign-in, once turned on. */
  totpSecret = '';
  constructor(private readonly product: ProductProcess) {}

  /** Sends until some answer other than a 5xx arrives; a connection the kill broke is sent again to the restart. */
  async send(pathname: string, init: { method: string; headers?: Record<string, string>; body?: unknown }): Promise<Answer> {
    for (let retries = 0; retries < 200; retries++) {
      const running = await this.product.get();
      try {
        const response = await fetch(`${running.base}${pathname}`, {
          method: init.method,
          headers: { 'content-type': 'application/json', ...init.headers },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await response.text();
        if (response.status >= 500) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, retries };
      } catch {
        // the process died under the request (or is dying): wait for it, then send again to the next one
        await Promise.race([running.exited, new Promise((resolve) => setTimeout(resolve, 200))]);
      }
    }
    throw new Error(`${pathname}: no answer after 200 tries`);
  }

  /** A player's tRPC call, signed as Telegram signs a launch. */
  async player(
    telegramId: number,
    procedure: string,
    input?: unknown,
    startParam?: string,
  ): Promise<Answer & { data?: unknown; appCode?: string }> {
    const headers = {
      authorization: tmaHeader({ user: { id: telegramId, first_name: 'Crash', username: `crash${telegramId}` }, startParam }),
    };
    const isQuery = procedure === 'home.get';
    const answer = isQuery
      ? await this.send(`/trpc/${procedure}`, { method: 'GET', headers })
      : await this.send(`/trpc/${procedure}`, { method: 'POST', headers, body: { json: input ?? null } });
    const result = answer.body.result as { data?: { json?: unknown } } | undefined;
    const error = answer.body.error as { json?: { data?: { appCode?: string } } } | undefined;
    return { ...answer, data: result?.data?.json, appCode: error?.json?.data?.appCode };
  }

  async operator(method: string, pathname: string, body?: unknown): Promise<Answer> {
    return this.send(`/api/admin${pathname}`, { method, headers: { authorization: `Bearer ${this.operatorToken}` }, body });
  }

  async signIn() {
    // a session that outlived the restart stays open: a second code of the same 30 s would be refused as reused
    if (this.operatorToken && (await this.operator('GET', '/me')).status === 200) return;
    const totp = this.totpSecret ? { totp: await totpCodeAt(this.totpSecret) } : {};
    const answer = await this.send('/api/admin/login', { method: 'POST', body: { ...OPERATOR, ...totp } });
    if (answer.status !== 200 || typeof answer.body.token !== 'string') throw new Error(`operator sign-in answered ${answer.status}`);
    this.operatorToken = answer.body.token;
    // production: the operator moves money, so two-step sign-in is on first
    if (!this.totpSecret)
      this.totpSecret = await enrolTotp((method, pathname, body) =>
        this.send(pathname, { method, headers: { authorization: `Bearer ${this.operatorToken}` }, body }),
      );
  }
}

// ---------------------------------------------------------------------------------------------------------
// The world the load runs in, and the operations

interface World {
  coin: Types.ObjectId;
  offer: Types.ObjectId;
  category: Types.ObjectId;
  players: Array<{ telegramId: number; id: string; code: string }>;
  nextTelegramId: number;
}

/** What an acknowledged operation must have left behind; checked after the last restart and the sweep. */
export interface Acknowledged {
  what: string;
  holds: () => Promise<boolean>;
}

type Operation = 'gift' | 'claim' | 'mining' | 'referral' | 'withdrawal' | 'stake';
const OPERATIONS: Operation[] = ['gift', 'claim', 'mining', 'referral', 'withdrawal', 'stake'];

class Load {
  readonly acknowledged: Acknowledged[] = [];
  readonly counts: Record<string, { acknowledged: number; refused: number }> = {};

  constructor(
    private readonly clients: Clients,
    private readonly world: World,
  ) {}

  private tally(name: string, ok: boolean) {
    const row = (this.counts[name] ??= { acknowledged: 0, refused: 0 });
    if (ok) row.acknowledged++;
    else row.refused++;
  }

  private player() {
    return this.world.players[randomInt(this.world.players.length)]!;
  }

  run(operation: Operation): Promise<void> {
    switch (operation) {
      case 'gift':
        return this.gift(this.player());
      case 'claim':
        return this.claim(this.player());
      case 'mining':
        return this.mining(this.player());
      case 'referral':
        return this.referral(this.player());
      case 'withdrawal':
        return this.withdrawal(this.player(), randomInt(2) === 0 ? 'rejected' : 'left-pending');
      case 'stake':
        return this.stake(this.player());
    }
  }

  async gift(player: World['players'][number], amount = '7') {
    const idempotencyKey = `crash-gift-${randomBytes(6).toString('hex')}`;
    const answer = await this.clients.operator('POST', `/users/${player.id}/adjustments`, {
      coin: String(this.world.coin),
      amount,
      direction: 'credit',
      note: 'crash test',
      idempotencyKey,
    });
    const ok = answer.status === 200 || answer.status === 201;
    this.tally('gift', ok);
    if (ok)
      this.acknowledged.push({ what: `gift ${idempotencyKey}`, holds: () => postedOnce({ idempotencyKey: `admin:${idempotencyKey}` }) });
  }

  async claim(player: World['players'][number]) {
    const mission = await MissionModel.create({
      category: this.world.category,
      coin: this.world.coin,
      title: `Crash ${randomBytes(3).toString('hex')}`,
      link: 'https://example.com',
      reward: Number(toMicros('3')),
      verifyType: 'auto',
    });
    const answer = await this.clients.player(player.telegramId, 'missions.claim', { missionId: String(mission._id) });
    // a retry of a claim the kill interrupted may be told 'Already done': it was the same claim
    const ok = answer.status === 200 || (answer.retries > 0 && answer.appCode === 'ALREADY_DONE');
    this.tally('claim', ok);
    if (ok)
      this.acknowledged.push({
        what: `claim of ${String(mission._id)} by ${player.id}`,
        holds: async () => {
          const progress = await UserMissionModel.findOne({ user: player.id, mission: mission._id }, { status: 1 }).lean<{
            _id: Types.ObjectId;
            status: string;
          }>();
          if (progress?.status !== 'done') return false;
          return postedOnce({ refType: 'UserMission', refId: String(progress._id), reason: 'mission' });
        },
      });
  }

  async mining(player: World['players'][number]) {
    const started = await this.clients.player(player.telegramId, 'mining.start');
    this.tally('mining.start', started.status === 200);
    // the session ends now rather than in hours (the record's dates only; the money is the product's)
    await MiningSessionModel.updateMany(
      { user: player.id, movedAt: null, endsAt: { $gt: new Date() } },
      { $set: { startedAt: new Date(Date.now() - 3_600_000), endsAt: new Date(Date.now() - 1000) } },
    );
    const moved = await this.clients.player(player.telegramId, 'mining.move');
    const ok = moved.status === 200 || (moved.retries > 0 && moved.appCode === 'NOTHING_TO_MOVE');
    this.tally('mining.move', ok);
    if (ok)
      this.acknowledged.push({
        what: `mining move by ${player.id}`,
        holds: async () => {
          const sessions = await MiningSessionModel.find({ user: player.id, movedAt: { $ne: null } }, { _id: 1 }).lean();
          for (const session of sessions)
            if (!(await postedOnce({ refType: 'MiningSession', refId: String(session._id), reason: 'mining' }))) return false;
          return sessions.length > 0;
        },
      });
  }

  async referral(referrer: World['players'][number]) {
    const telegramId = this.world.nextTelegramId++;
    const answer = await this.clients.player(telegramId, 'home.get', undefined, referrer.code);
    const ok = answer.status === 200;
    this.tally('referral', ok);
    if (ok)
      this.acknowledged.push({
        what: `referral of ${telegramId} by ${referrer.id}`,
        holds: async () => {
          const friend = await UserModel.findOne({ telegramId }).lean();
          if (!friend || String(friend.referrer) !== referrer.id) return false;
          if (friend.referralState === 'over-limit') return true;
          const reward = { refType: 'User', refId: String(friend._id), reason: 'referral' };
          // a reward waiting on risk (a burst of friends is a farm's) is recorded as owed: paid at most once so far, never lost
          if (friend.referralState === 'waiting') return (await countPosted(reward)) <= 1;
          return friend.referralState === 'rewarded' && (await postedOnce(reward));
        },
      });
  }

  // 'left-pending': paying by hand needs a real payment on a chain (payouts.test.ts, with the stand-in); here the
  // request alone is the operation under crashes, and the withdrawal waits for an operator
  async withdrawal(player: World['players'][number], decision: 'rejected' | 'left-pending') {
    const idempotencyKey = `crash-withdraw-${randomBytes(6).toString('hex')}`;
    const requested = await this.clients.player(player.telegramId, 'withdrawals.request', {
      coinId: String(this.world.coin),
      amount: '5',
      idempotencyKey,
    });
    const ok = requested.status === 200;
    this.tally('withdrawal.request', ok);
    if (!ok) return;
    const id = (requested.data as { id: string }).id;
    this.acknowledged.push({
      what: `withdrawal ${id}`,
      holds: async () => (await withdrawalOf(id)) !== null && (await postedOnce({ refType: 'Withdrawal', refId: id, reason: 'withdraw' })),
    });
    if (decision === 'left-pending') return;
    const review = { status: 'rejected', rejectReason: 'crash test' };
    const decided = await this.clients.operator('PUT', `/withdraws/${id}`, review);
    const decidedOk = decided.status === 200 || (decided.retries > 0 && decided.status === 409);
    this.tally(`withdrawal.${decision}`, decidedOk);
    if (decidedOk)
      this.acknowledged.push({
        what: `withdrawal ${id} ${decision}`,
        holds: async () => {
          const withdrawal = await withdrawalOf(id);
          if (withdrawal?.status !== decision) return false;
          return (await countPosted({ refType: 'Withdrawal', refId: id, reason: 'refund' })) === 1;
        },
      });
  }

  async stake(player: World['players'][number]) {
    const idempotencyKey = `crash-stake-${randomBytes(6).toString('hex')}`;
    const staked = await this.clients.player(player.telegramId, 'staking.stake', {
      stakingCoinId: String(this.world.offer),
      amount: '10',
      duration: 'week',
      idempotencyKey,
    });
    const ok = staked.status === 200;
    this.tally('stake', ok);
    if (!ok) return;
    const stakeId = (staked.data as { id: string }).id;
    this.acknowledged.push({
      what: `stake ${stakeId}`,
      holds: async () =>
        (await StakeModel.exists({ _id: stakeId, state: { $ne: 'opening' } })) !== null &&
        (await postedOnce({ refType: 'Stake', refId: stakeId, reason: 'stake' })),
    });
    // the term ends now rather than in a week (the record's date only)
    await StakeModel.updateOne({ _id: stakeId }, { $set: { unlocksAt: new Date(Date.now() - 1000) } });
    const claimed = await this.clients.player(player.telegramId, 'staking.claim', { stakeId });
    const claimOk = claimed.status === 200 || (claimed.retries > 0 && claimed.appCode === 'STAKE_CLAIMED');
    this.tally('stake.claim', claimOk);
    if (claimOk)
      this.acknowledged.push({
        what: `stake ${stakeId} claimed`,
        holds: () => postedOnce({ refType: 'Stake', refId: stakeId, reason: 'unstake' }),
      });
  }
}

function countPosted(filter: Record<string, unknown>) {
  return LedgerEntryModel.countDocuments({ ...filter, state: 'posted' });
}
async function postedOnce(filter: Record<string, unknown>) {
  return (await countPosted(filter)) === 1;
}
function withdrawalOf(id: string) {
  return WithdrawalModel.findById(id).lean();
}

/** Which operation reaches a fault point. */
const OPERATION_AT: Record<FaultPoint, (load: Load, world: World) => Promise<void>> = {
  'ledger:after-record': (load, world) => load.gift(world.players[0]!),
  'ledger:after-apply': (load, world) => load.gift(world.players[0]!),
  'gift:after-entry': (load, world) => load.gift(world.players[0]!),
  'mission:after-seat': (load, world) => load.claim(world.players[1]!),
  'mission:after-done': (load, world) => load.claim(world.players[1]!),
  'mission:after-credit': (load, world) => load.claim(world.players[1]!),
  'mining:after-mark': (load, world) => load.mining(world.players[2]!),
  'mining:after-credit': (load, world) => load.mining(world.players[2]!),
  'referral:after-create': (load, world) => load.referral(world.players[3]!),
  'referral:after-count': (load, world) => load.referral(world.players[3]!),
  'referral:after-credit': (load, world) => load.referral(world.players[3]!),
  'withdrawal:after-record': (load, world) => load.withdrawal(world.players[4]!, 'left-pending'),
  'withdrawal:after-take': (load, world) => load.withdrawal(world.players[4]!, 'left-pending'),
  'withdrawal:after-decision': (load, world) => load.withdrawal(world.players[4]!, 'rejected'),
  'withdrawal:after-refund': (load, world) => load.withdrawal(world.players[4]!, 'rejected'),
  'stake:after-record': (load, world) => load.stake(world.players[5]!),
  'stake:after-debit': (load, world) => load.stake(world.players[5]!),
  'stake:after-claim-mark': (load, world) => load.stake(world.players[5]!),
  'stake:after-claim-credit': (load, world) => load.stake(world.players[5]!),
};

// ---------------------------------------------------------------------------------------------------------

async function arrangeWorld(): Promise<Omit<World, 'players'>> {
  const coin = await GiftCoinModel.create({
    name: 'Crash Coin',
    symbol: 'CRASH',
    decimals: 9,
    minWithdraw: '1',
    withdrawEnabled: true,
    network: 'ton',
    // the load is one operator giving thousands of coins: the brakes (a second operator) are the brakes tests' subject, not this one's
    giftApprovalAbove: '0',
    operatorDailyLimit: '0',
  });
  const referrerCoin = coin._id;
  await AppConfigModel.updateOne(
    { key: 'app' },
    {
      $set: {
        referrerCoin,
        referrerCoinAmount: Number(toMicros('4')),
        defaultInviteLimit: 1000,
        miningCoin: coin._id,
        earnDurationHours: 8,
        earnAmount: Number(toMicros('2')),
        // a burst of friends from one loopback address is what a farm looks like; here it is the load, and referral
        // rewards must be paid to be walked through (risk gating has its own crash test, riskGate.test.ts)
        'risk.reviewAt': 10_000,
        'risk.highAt': 20_000,
      },
    },
    { upsert: true },
  );
  const offer = await StakingCoinModel.create({
    coin: coin._id,
    minAmount: Number(toMicros('1')),
    maxAmount: Number(toMicros('1000')),
    profits: { week: '10' },
  });
  const category = await CategoryModel.create({ title: 'Crash' });
  return { coin: coin._id, offer: offer._id, category: category._id, nextTelegramId: 900_000_000 + randomInt(1_000_000) * 10 };
}

/** Runs the whole crash test and reconciles; the caller decides what to do with the findings. */
export async function runCrashTest(options: CrashTestOptions): Promise<CrashTestReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();

  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  const product = new ProductProcess(options.mongoUrl, log);
  const clients = new Clients(product);
  try {
    const base = await arrangeWorld();
    await product.get();
    await clients.signIn();
    // players as their first launch creates them, each with a wallet proven earlier and coins to spend
    const players: World['players'] = [];
    for (let i = 0; i < (options.players ?? 12); i++) {
      const telegramId = base.nextTelegramId++;
      const launched = await clients.player(telegramId, 'home.get');
      if (launched.status !== 200) throw new Error(`a first launch answered ${launched.status}`);
      const user = (await UserModel.findOne({ telegramId }).lean())!;
      await WalletLinkModel.create({ address: `0:${randomBytes(32).toString('hex')}`, user: user._id, network: '-239' });
      players.push({ telegramId, id: String(user._id), code: user.referralCode });
    }
    const world: World = { ...base, players };
    const load = new Load(clients, world);
    for (const player of players) await load.gift(player, '1000');

    // 1. exactly at every fault point, one at a time
    log(`walking through ${FAULT_POINTS.length} fault points`);
    for (const point of FAULT_POINTS) {
      await product.arm([point]);
      await clients.signIn();
      await OPERATION_AT[point](load, world);
      if (!product.killsAtPoint[point]) throw new Error(`the operation meant to reach ${point} never got there`);
    }
    await product.arm([]);
    await clients.signIn();

    // 2. a mixed load, killed at random moments
    log(`mixed load under random kills for ${options.budgetSeconds} s`);
    const until = Date.now() + options.budgetSeconds * 1000;
    const workers = Array.from({ length: options.workers ?? 6 }, async () => {
      while (Date.now() < until) await load.run(OPERATIONS[randomInt(OPERATIONS.length)]!);
    });
    const killer = (async () => {
      while (Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 300 + randomInt(2000)));
        if (Date.now() < until) await product.killNow();
      }
    })();
    await Promise.all([...workers, killer]);

    // 3. the last restart, the sweep's turn, then every record against the ledger
    await product.get();
    log('waiting for the recovery sweep');
    const result = await findings(load.acknowledged, { settleMs: 15_000 });
    return {
      findings: result,
      killsAtPoint: product.killsAtPoint,
      randomKills: product.randomKills,
      operations: load.counts,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await product.stop();
  }
}

/** The report as the command prints it. */
export function formatReport(report: CrashTestReport): string {
  const lines = [`crash test: ${report.seconds.toFixed(1)} s`, '', 'kills:'];
  for (const point of FAULT_POINTS) lines.push(`  ${point.padEnd(28)} ${report.killsAtPoint[point] ?? 0}`);
  lines.push(`  ${'random moments'.padEnd(28)} ${report.randomKills}`, '', 'operations (acknowledged / refused):');
  for (const [name, row] of Object.entries(report.operations)) lines.push(`  ${name.padEnd(28)} ${row.acknowledged} / ${row.refused}`);
  lines.push('', 'findings (each must be 0):');
  for (const [name, value] of Object.entries(report.findings.counts)) lines.push(`  ${name.padEnd(34)} ${value}`);
  for (const detail of report.findings.details.slice(0, 20)) lines.push(`  ! ${detail}`);
  return lines.join('\n');
}
