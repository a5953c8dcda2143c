import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Types } from 'mongoose';
import bcrypt from 'bcryptjs';
import { toMicros, type PlayerStatus } from '@gift/shared';
import { idOfKey, scopedKey } from '../src/db/ids';
import { ENGINE_FAULT_POINTS, FAULT_POINTS } from '../src/lib/faults';
import { registerMoneyKinds } from '../src/moneyKinds';
import { registeredKinds } from '../src/modules/ledger/engine';
import { webhookSecretToken } from '../src/modules/bot/bot.service';
import { AccountGrantModel } from '../src/modules/accounts/accountGrant.model';
import { leagueWeekNamed, leagueWeekOf, weekBefore } from '../src/modules/leagues/leagueWeek';
import { LeagueWeekModel } from '../src/modules/leagues/leagues.models';
import { StarOfferModel, StarPurchaseModel } from '../src/modules/shop/shop.models';
import { ClusterCleanUpModel } from '../src/modules/users/clusterCleanUp.model';
import { entryKeys } from '../src/modules/ledger/entryKeys';
import { AccountModel } from '../src/modules/accounts/account.model';
import { AuditEntryModel } from '../src/modules/audit/audit.model';
import { ClawBackModel } from '../src/modules/clawbacks/clawBack.model';
import { AppConfigModel } from '../src/modules/config/appConfig.model';
import { GiftApprovalModel } from '../src/modules/gifts/giftApproval.model';
import { OperationModel } from '../src/modules/ledger/operation.model';
import { GiftCoinModel } from '../src/modules/coins/giftCoin.model';
import { CategoryModel } from '../src/modules/content/content.models';
import { MiningSessionModel } from '../src/modules/mining/miningSession.model';
import { LedgerEntryModel, LedgerHoldModel } from '../src/modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { StakeModel, StakingCoinModel } from '../src/modules/staking/staking.models';
import { UserModel } from '../src/modules/users/user.model';
import { WalletLinkModel } from '../src/modules/wallet/wallet.models';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';
import { startBotApiStandIn, type BotApiStandIn } from './botApiStandIn';
import {
  accountGrantErrors,
  clawBackErrors,
  cleanUpErrors,
  findings,
  holdAgrees,
  leagueWeekErrors,
  purchaseErrors,
  type Expectation,
  type Findings,
} from './crashReconcile';
import { TEST_BOT_TOKEN } from './helpers';
import { productProcessEnv } from './productProcess';
import { PAYOUT_FAULT_POINTS, startHotWalletChain } from './tonChain';
import { tmaHeader } from './telegram';
import { enrolTotp, totpCodeAt } from './totp';

/**
 * The crash test: the product (the compiled server, as `npm start` runs it, paying from its hot wallet on the local TON
 * stand-in) in a process of its own against a database in another process, under a mixed money load, killed with
 * SIGKILL exactly at every fault point and at random moments, restarted each time. Of the calls a kill leaves
 * unanswered, every second one is sent again with the same key, as the apps do, and the others never are: what they
 * started only the product's own sweep can finish. Then the sweep runs and every record is reconciled against the
 * ledger and the chain (`crashReconcile.ts`). A mutation run (`mutation`) plants a known bug the findings must show.
 */

const SERVER_DIR = path.resolve(__dirname, '..');
/** Its own build, so a test building dist/index.js beside it never rewrites the file this one runs. */
const BUILD = 'dist/crash-test/index.js';
const OPERATOR = { username: 'crash-ops', password: 'a long crash test password' };
/** The second operator, independent of the first, who decides what the brakes keep waiting (created in the database, set-up). */
const APPROVER = { username: 'crash-approver', password: 'another long crash test password' };
const KILL_LINE = /^fault point (\S+): killing the process/;
/** The secret the product gives Telegram for its webhook (setWebhook), derived as the product derives it. */
const WEBHOOK_SECRET = webhookSecretToken(TEST_BOT_TOKEN, productProcessEnv('', OPERATOR).JWT_SECRET!);
/** The shop's kinds of item: each granted by a Stars payment, each taken back by a refund. */
const STAR_KINDS = ['extraSession', 'streakFreeze', 'multiplier'] as const;
type StarKind = (typeof STAR_KINDS)[number];

export interface CrashTestOptions {
  /** `mongodb://…/<database>`: the database the product and the test share, in another process. */
  mongoUrl: string;
  /** Seconds of mixed load under random kills, after the walk through every fault point. */
  budgetSeconds: number;
  players?: number;
  workers?: number;
  /** A known bug to plant in the product (lib/mutations.ts): the findings must then show it. */
  mutation?: string;
  log?: (line: string) => void;
}

export interface CrashTestReport {
  findings: Findings;
  /** The fault points walked, in order: the product's own list, and the hot wallet's. */
  points: string[];
  killsAtPoint: Record<string, number>;
  randomKills: number;
  /** Calls a kill left unanswered: every second one sent again with its key, the others never. */
  crashedCalls: { retried: number; neverRetried: number };
  /** Withdrawals approved for the hot wallet, and of them paid on the chain (each once, or the findings say so). */
  payouts: { approved: number; paid: number };
  operations: Record<string, OperationCounts>;
  /** The engine's operations the run left done, by kind. */
  kinds: Record<string, number>;
  seconds: number;
}

interface OperationCounts {
  acknowledged: number;
  refused: number;
  /** Unanswered and never sent again. */
  unanswered: number;
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
    private readonly env: Record<string, string>,
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

  /** Whether the product killed itself at `point`, waiting up to `ms` for a kill a job (not a request) reaches. */
  async killedAt(point: string, ms: number): Promise<boolean> {
    for (const deadline = Date.now() + ms; !this.killsAtPoint[point] && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return !!this.killsAtPoint[point];
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
      env: productProcessEnv(this.mongoUrl, OPERATOR, { ...this.env, NODE_ENV: 'test', GIFT_FAULT_POINTS: this.armed.join(',') }),
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
// Clients that retry every second call a kill left unanswered, with the same keys, and never send the others again

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** How many times the request went unanswered (the server died or could not reach the database) first. */
  retries: number;
  /** Unanswered, and never to be sent again: what it started is the sweep's to finish. */
  unanswered?: true;
}

/** A money call of the load, which a kill may leave unanswered for good; the operator's sign-in and the set-up always get through. */
const MAY_GIVE_UP = { mayGiveUp: true };

/** A console operator the load signs in as: the one who gives and asks, or the second one who decides what waits for them. */
interface OperatorSession {
  username: string;
  password: string;
  token: string;
  /** The key of the operator's two-step sign-in, once turned on. */
  totpSecret: string;
}

type Signer = 'asker' | 'approver';

class Clients {
  readonly operators: Record<Signer, OperatorSession> = {
    asker: { ...OPERATOR, token: '', totpSecret: '' },
    approver: { ...APPROVER, token: '', totpSecret: '' },
  };
  readonly crashedCalls = { retried: 0, neverRetried: 0 };
  constructor(private readonly product: ProductProcess) {}

  /** Deterministic: the first call a kill leaves unanswered is sent again, the second never is, and so on in turn. */
  private givesUp(): boolean {
    const never = (this.crashedCalls.retried + this.crashedCalls.neverRetried) % 2 === 1;
    if (never) this.crashedCalls.neverRetried++;
    else this.crashedCalls.retried++;
    return never;
  }

  /**
   * Sends until some answer other than a 5xx arrives; a connection the kill broke is sent again to the restart, unless
   * `mayGiveUp` and this call is one of those never sent again.
   */
  async send(
    pathname: string,
    init: { method: string; headers?: Record<string, string>; body?: unknown },
    { mayGiveUp = false } = {},
  ): Promise<Answer> {
    for (let retries = 0; retries < 200; retries++) {
      if (retries === 1 && mayGiveUp && this.givesUp()) return { status: 0, body: {}, retries: 0, unanswered: true };
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
      ? await this.send(`/trpc/${procedure}`, { method: 'GET', headers }, MAY_GIVE_UP)
      : await this.send(`/trpc/${procedure}`, { method: 'POST', headers, body: { json: input ?? null } }, MAY_GIVE_UP);
    const result = answer.body.result as { data?: { json?: unknown } } | undefined;
    const error = answer.body.error as { json?: { data?: { appCode?: string } } } | undefined;
    return { ...answer, data: result?.data?.json, appCode: error?.json?.data?.appCode };
  }

  /** An operator's money call (`/api/admin…`), which a kill may leave unanswered for good: the asker's, or the second operator's. */
  async operator(method: string, pathname: string, body?: unknown, as: Signer = 'asker'): Promise<Answer> {
    const headers = { authorization: `Bearer ${this.operators[as].token}` };
    return this.send(`/api/admin${pathname}`, { method, headers, body }, MAY_GIVE_UP);
  }

  /**
   * An update delivered to the bot's webhook as Telegram delivers it, with the secret it was given; a restarted product answers
   * 404 until its bot is up, and is sent it again.
   */
  async webhook(update: Record<string, unknown>, { mayGiveUp = true } = {}): Promise<Answer> {
    const headers = { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET };
    for (let tries = 0; tries < 600; tries++) {
      const answer = await this.send('/telegram/webhook', { method: 'POST', headers, body: update }, { mayGiveUp });
      if (answer.status !== 404) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the webhook answered 404 for a minute');
  }

  /** Both operators signed in (after a restart: a session that outlived it stays open). */
  async signIn() {
    for (const session of Object.values(this.operators)) await this.signInAs(session);
  }

  private async signInAs(session: OperatorSession) {
    // a session that outlived the restart stays open: a second code of the same 30 s would be refused as reused
    const auth = () => ({ authorization: `Bearer ${session.token}` });
    const me = await this.send('/api/admin/me', { method: 'GET', headers: auth() });
    if (session.token && me.status === 200) return;
    const totp = session.totpSecret ? { totp: await totpCodeAt(session.totpSecret) } : {};
    const { username, password } = session;
    const answer = await this.send('/api/admin/login', { method: 'POST', body: { username, password, ...totp } });
    if (answer.status !== 200 || typeof answer.body.token !== 'string') throw new Error(`${username}'s sign-in answered ${answer.status}`);
    session.token = answer.body.token;
    // production: the operator moves money, so two-step sign-in is on first
    if (!session.totpSecret)
      session.totpSecret = await enrolTotp((method, pathname, body) => this.send(pathname, { method, headers: auth(), body }));
  }
}

// ---------------------------------------------------------------------------------------------------------
// The world the load runs in, and the operations

interface World {
  coin: Types.ObjectId;
  /** A coin whose brakes are on: a gift or a mission reward above 100 waits for the second operator. */
  brakeCoin: Types.ObjectId;
  offer: Types.ObjectId;
  category: Types.ObjectId;
  players: Array<{ telegramId: number; id: string; code: string }>;
  nextTelegramId: number;
  /** The shop's items, one of each kind, paid in Stars through the Bot API stand-in. */
  starOffers: Record<StarKind, Types.ObjectId>;
  /** The weeks of the past the load ends one by one (the week before last first, then earlier ones). */
  nextPastWeek: string;
}

type Player = World['players'][number];
type Decision = 'rejected' | 'left-pending' | 'approved';

const OPERATIONS = [
  'gift',
  'claim',
  'mining',
  'referral',
  'withdrawal',
  'stake',
  'manual',
  'status',
  'reward-change',
  'gift-approval',
  'claw-back',
  'account-grant',
  'stars',
  'league-week',
  'cluster-cleanup',
] as const;
type Operation = (typeof OPERATIONS)[number];
const DECISIONS: Decision[] = ['rejected', 'left-pending', 'approved'];
/** A player's statuses in turn, as the console sets them: each change a `player-status` operation. */
const STATUS_PLANS: PlayerStatus[][] = [
  ['frozen', 'active'],
  ['banned', 'active'],
  ['frozen', 'banned'],
];

class Load {
  /** What the clients were told had happened: each must hold after the sweep. */
  readonly acknowledged: Expectation[] = [];
  /** Calls never answered and never sent again: each must be whole after the sweep (done, or undone). */
  readonly unanswered: Expectation[] = [];
  readonly counts: Record<string, OperationCounts> = {};

  constructor(
    private readonly clients: Clients,
    private readonly world: World,
    private readonly timesSent: (ids: string[]) => Promise<Map<string, number>>,
    private readonly telegram: BotApiStandIn,
  ) {}

  /**
   * Files an answer: acknowledged (its effect must hold), refused, or never answered (whatever it did must be whole).
   * Returns whether it was acknowledged.
   */
  private file(name: string, answer: Answer, ok: boolean, must: { holds: Expectation; whole: Expectation }): boolean {
    const row = (this.counts[name] ??= { acknowledged: 0, refused: 0, unanswered: 0 });
    if (answer.unanswered) {
      row.unanswered++;
      this.unanswered.push(must.whole);
    } else if (ok) {
      row.acknowledged++;
      this.acknowledged.push(must.holds);
    } else row.refused++;
    return ok && !answer.unanswered;
  }

  private player() {
    return this.world.players[randomInt(this.world.players.length)]!;
  }

  run(operation: Operation): Promise<void> {
    switch (operation) {
      case 'gift':
        return this.gift(this.player()).then(() => undefined);
      case 'claim':
        return this.claim(this.player());
      case 'mining':
        return this.mining(this.player());
      case 'referral':
        return this.referral(this.player());
      case 'withdrawal':
        return this.withdrawal(this.player(), DECISIONS[randomInt(DECISIONS.length)]!);
      case 'stake':
        return this.stake(this.player());
      case 'manual':
        return this.manual(this.player(), DECISIONS[randomInt(DECISIONS.length)]!);
      case 'status':
        return this.status(STATUS_PLANS[randomInt(STATUS_PLANS.length)]!);
      case 'reward-change':
        return this.rewardChange(DECISIONS[randomInt(DECISIONS.length)]!);
      case 'gift-approval':
        return this.giftApproval(this.player(), DECISIONS[randomInt(DECISIONS.length)]!);
      case 'claw-back':
        return this.clawBack(this.player());
      case 'account-grant':
        return this.accountGrant(DECISIONS[randomInt(DECISIONS.length)]!);
      case 'stars':
        return this.stars(STAR_KINDS[randomInt(STAR_KINDS.length)]!, randomInt(2) === 0);
      case 'league-week':
        return this.leagueWeek();
      case 'cluster-cleanup':
        return this.clusterCleanUp();
    }
  }

  /** An operator's gift; answers its ledger line's key when acknowledged. */
  async gift(player: Player, amount = '7'): Promise<string | null> {
    const idempotencyKey = `crash-gift-${randomBytes(6).toString('hex')}`;
    const answer = await this.clients.operator('POST', `/users/${player.id}/adjustments`, {
      coin: String(this.world.coin),
      amount,
      direction: 'credit',
      note: 'crash test',
      idempotencyKey,
    });
    const entry = { idempotencyKey: `admin:${idempotencyKey}` };
    const ok = this.file('gift', answer, answer.status === 200 || answer.status === 201, {
      holds: { what: `gift ${idempotencyKey}`, holds: () => postedOnce(entry) },
      whole: { what: `gift ${idempotencyKey}`, holds: () => postedAtMostOnce(entry) },
    });
    return ok ? entry.idempotencyKey : null;
  }

  async claim(player: Player) {
    const mission = await MissionModel.create({
      category: this.world.category,
      coin: this.world.coin,
      title: `Crash ${randomBytes(3).toString('hex')}`,
      link: 'https://example.com',
      reward: Number(toMicros('3')),
      verifyType: 'auto',
    });
    const answer = await this.clients.player(player.telegramId, 'missions.claim', { missionId: String(mission._id) });
    const what = `claim of ${String(mission._id)} by ${player.id}`;
    const claimed = async (mustBeDone: boolean) => {
      const progress = await UserMissionModel.findOne({ user: player.id, mission: mission._id }, { status: 1 }).lean<{
        _id: Types.ObjectId;
        status: string;
      }>();
      const reward = { refType: 'UserMission', refId: String(progress?._id), reason: 'mission' };
      if (progress?.status === 'done') return postedOnce(reward);
      return !mustBeDone && (!progress || (await countPosted(reward)) === 0);
    };
    // a retry of a claim the kill interrupted may be told 'Already done': it was the same claim
    this.file('claim', answer, answer.status === 200 || (answer.retries > 0 && answer.appCode === 'ALREADY_DONE'), {
      holds: { what, holds: () => claimed(true) },
      whole: { what, holds: () => claimed(false) },
    });
  }

  async mining(player: Player) {
    const what = `mining move by ${player.id}`;
    // every session moved has its credit once, and none not moved has any
    const moves = async () => {
      const sessions = await MiningSessionModel.find({ user: player.id }, { movedAt: 1 }).lean();
      for (const session of sessions) {
        const credits = await countPosted({ refType: 'MiningSession', refId: String(session._id), reason: 'mining' });
        if (credits !== (session.movedAt ? 1 : 0)) return null;
      }
      return sessions.filter((session) => session.movedAt).length;
    };
    const whole = { what, holds: async () => (await moves()) !== null };
    const started = await this.clients.player(player.telegramId, 'mining.start');
    if (!this.file('mining.start', started, started.status === 200, { holds: whole, whole })) return;
    // the session ends now rather than in hours (the record's dates only; the money is the product's)
    await MiningSessionModel.updateMany(
      { user: player.id, movedAt: null, endsAt: { $gt: new Date() } },
      { $set: { startedAt: new Date(Date.now() - 3_600_000), endsAt: new Date(Date.now() - 1000) } },
    );
    const moved = await this.clients.player(player.telegramId, 'mining.move');
    this.file('mining.move', moved, moved.status === 200 || (moved.retries > 0 && moved.appCode === 'NOTHING_TO_MOVE'), {
      holds: { what, holds: async () => ((await moves()) ?? 0) > 0 },
      whole,
    });
  }

  async referral(referrer: Player) {
    const telegramId = this.world.nextTelegramId++;
    const answer = await this.clients.player(telegramId, 'home.get', undefined, referrer.code);
    const what = `referral of ${telegramId} by ${referrer.id}`;
    const rewarded = async (mustBeThere: boolean) => {
      const friend = await UserModel.findOne({ telegramId }).lean();
      if (!friend) return !mustBeThere;
      const reward = { refType: 'User', refId: String(friend._id), reason: 'referral' };
      if (String(friend.referrer) !== referrer.id) return !mustBeThere && (await countPosted(reward)) === 0;
      if (friend.referralState === 'over-limit') return true;
      // a reward waiting on risk (a burst of friends is a farm's) is recorded as owed: paid at most once so far, never lost
      if (friend.referralState === 'waiting') return (await countPosted(reward)) <= 1;
      return friend.referralState === 'rewarded' && (await postedOnce(reward));
    };
    this.file('referral', answer, answer.status === 200, {
      holds: { what, holds: () => rewarded(true) },
      whole: { what, holds: () => rewarded(false) },
    });
  }

  /**
   * A withdrawal requested, then rejected (refunded), left pending for an operator, or approved and paid by the hot
   * wallet on the chain (exactly once).
   */
  async withdrawal(player: Player, decision: Decision) {
    const idempotencyKey = `crash-withdraw-${randomBytes(6).toString('hex')}`;
    const requested = await this.clients.player(player.telegramId, 'withdrawals.request', {
      coinId: String(this.world.coin),
      amount: '5',
      idempotencyKey,
    });
    const id = requested.status === 200 ? (requested.data as { id: string }).id : '';
    const taken = async (mustBeThere: boolean) => {
      const key = scopedKey(player.id, idempotencyKey);
      const withdrawal = await WithdrawalModel.findOne({ idempotencyKey: key }).lean();
      // none written: none taken either (the engine writes it once its amount has left the balance)
      if (!withdrawal)
        return !mustBeThere && (await countPosted({ refType: 'Withdrawal', refId: String(idOfKey('withdrawal', key)) })) === 0;
      return postedOnce({ refType: 'Withdrawal', refId: String(withdrawal._id), reason: 'withdraw' });
    };
    const what = `withdrawal ${id || idempotencyKey}`;
    const ok = this.file('withdrawal.request', requested, requested.status === 200, {
      holds: { what, holds: () => taken(true) },
      whole: { what, holds: () => taken(false) },
    });
    if (!ok || decision === 'left-pending') return;

    const review = decision === 'rejected' ? { status: 'rejected', rejectReason: 'crash test' } : { status: 'approved' };
    const decided = await this.clients.operator('PUT', `/withdraws/${id}`, review);
    // once decided, it is finished: a rejection refunded once, an approval paid on the chain once (and the decision's
    // operation done: see the reconciliation's unfinished operations)
    const finished = async () => {
      const withdrawal = await WithdrawalModel.findById(id).lean();
      const refunds = await countPosted({ refType: 'Withdrawal', refId: id, reason: 'refund' });
      if (withdrawal?.status === 'pending') return { decided: false, whole: refunds === 0 };
      if (decision === 'rejected') return { decided: true, whole: withdrawal?.status === 'rejected' && refunds === 1 };
      return { decided: true, whole: withdrawal?.status === 'done' && refunds === 0 && (await this.timesSent([id])).get(id) === 1 };
    };
    const decidedWhat = `withdrawal ${id} ${decision}`;
    this.file(`withdrawal.${decision}`, decided, decided.status === 200 || (decided.retries > 0 && decided.status === 409), {
      holds: { what: decidedWhat, holds: async () => Object.values(await finished()).every(Boolean) },
      whole: { what: decidedWhat, holds: async () => (await finished()).whole },
    });
  }

  async stake(player: Player) {
    const idempotencyKey = `crash-stake-${randomBytes(6).toString('hex')}`;
    const stakeKey = scopedKey(player.id, idempotencyKey);
    const staked = await this.clients.player(player.telegramId, 'staking.stake', {
      stakingCoinId: String(this.world.offer),
      amount: '10',
      duration: 'week',
      idempotencyKey,
    });
    const opened = async (mustBeThere: boolean) => {
      const record = await StakeModel.findOne({ idempotencyKey: stakeKey }, { _id: 1 }).lean();
      if (!record) return !mustBeThere && (await countPosted({ idempotencyKey: entryKeys.stakeLock(stakeKey) })) === 0;
      return postedOnce({ refType: 'Stake', refId: String(record._id), reason: 'stake' });
    };
    const ok = this.file('stake', staked, staked.status === 200, {
      holds: { what: `stake ${stakeKey}`, holds: () => opened(true) },
      whole: { what: `stake ${stakeKey}`, holds: () => opened(false) },
    });
    if (!ok) return;
    const stakeId = (staked.data as { id: string }).id;
    // the term ends now rather than in a week (the record's date only)
    await StakeModel.updateOne({ _id: stakeId }, { $set: { unlocksAt: new Date(Date.now() - 1000) } });
    const claimed = await this.clients.player(player.telegramId, 'staking.claim', { stakeId });
    const paidBack = async (mustBeThere: boolean) => {
      const record = await StakeModel.findById(stakeId, { claimedAt: 1 }).lean();
      const payback = { refType: 'Stake', refId: stakeId, reason: 'unstake' };
      if (!record?.claimedAt) return !mustBeThere && (await countPosted(payback)) === 0;
      return postedOnce(payback);
    };
    this.file('stake.claim', claimed, claimed.status === 200 || (claimed.retries > 0 && claimed.appCode === 'STAKE_CLAIMED'), {
      holds: { what: `stake ${stakeId} claimed`, holds: () => paidBack(true) },
      whole: { what: `stake ${stakeId} claimed`, holds: () => paidBack(false) },
    });
  }

  /**
   * A Manual mission: the player's Go (`mission-start`: the progress written, counted once in missionsCount), the claim sent
   * for review (`mission-review`: a place taken, the progress pending), then the operator's approval (`mission-credit`),
   * rejection (`mission-reject`: the place given back, no credit) or neither.
   */
  async manual(player: Player, decision: Decision) {
    const mission = await MissionModel.create({
      category: this.world.category,
      coin: this.world.coin,
      title: `Crash manual ${randomBytes(3).toString('hex')}`,
      link: 'https://example.com',
      reward: Number(toMicros('3')),
      verifyType: 'manual',
    });
    const missionId = String(mission._id);
    const what = `manual mission ${missionId} of ${player.id}`;
    const state = async () => {
      const progress = await UserMissionModel.findOne({ user: player.id, mission: mission._id }, { status: 1 }).lean();
      const places = (await MissionModel.findById(mission._id, { completions: 1 }).lean())?.completions ?? 0;
      const credits = progress ? await countPosted({ refType: 'UserMission', refId: String(progress._id), reason: 'mission' }) : 0;
      return { status: progress?.status ?? 'none', places, credits };
    };
    // each state the progress may be in, with its place and credit: a place held while it waits or is done, once; a credit once done
    const consistent = ({ status, places, credits }: Awaited<ReturnType<typeof state>>) =>
      ({ none: 0, started: 0, rejected: 0, pending: 1, done: 1 })[status] === places && credits === (status === 'done' ? 1 : 0);
    const isIn = (statuses: string[]) => async () => {
      const now = await state();
      return consistent(now) && statuses.includes(now.status);
    };
    const went = await this.clients.player(player.telegramId, 'missions.go', { missionId });
    const afterGo = ['started', 'pending', 'done', 'rejected'];
    const goOk = this.file('mission.go', went, went.status === 200, {
      holds: { what: `${what}: Go`, holds: isIn(afterGo) },
      whole: { what: `${what}: Go`, holds: isIn(['none', ...afterGo]) },
    });
    if (!goOk) return;
    const claimed = await this.clients.player(player.telegramId, 'missions.claim', { missionId, proof: { text: 'crash test' } });
    const reviewOk = this.file(
      'mission.review',
      claimed,
      claimed.status === 200 || (claimed.retries > 0 && claimed.appCode === 'ALREADY_PENDING'),
      {
        holds: { what: `${what}: sent for review`, holds: isIn(['pending', 'done', 'rejected']) },
        whole: { what: `${what}: sent for review`, holds: isIn(['started', 'pending']) },
      },
    );
    if (!reviewOk || decision === 'left-pending') return;
    const progressId = String((await UserMissionModel.findOne({ user: player.id, mission: mission._id }, { _id: 1 }).lean())!._id);
    const review = decision === 'approved' ? { status: 'done' } : { status: 'rejected', rejectReason: 'crash test' };
    const reviewed = await this.clients.operator('PUT', `/user-missions/${progressId}`, review);
    const outcome = decision === 'approved' ? 'done' : 'rejected';
    // a repeat of a decision the kill interrupted finds it decided (409): it was the same decision
    this.file(`mission.${decision}`, reviewed, reviewed.status === 200 || (reviewed.retries > 0 && reviewed.status === 409), {
      holds: { what: `${what}: ${decision}`, holds: isIn([outcome]) },
      whole: { what: `${what}: ${decision}`, holds: isIn(['pending', outcome]) },
    });
  }

  /**
   * A fresh player's statuses changed in turn through the console (`player-status`, each change one operation): after each,
   * the player's status is one of those set so far (or a later one) and the ledger's hold says the same.
   */
  async status(plan: PlayerStatus[]) {
    const telegramId = this.world.nextTelegramId++;
    const launched = await this.clients.player(telegramId, 'home.get');
    if (launched.status !== 200) return;
    const id = String((await UserModel.findOne({ telegramId }, { _id: 1 }).lean())!._id);
    const standing = (statuses: PlayerStatus[]) => async () => {
      const [player, hold] = await Promise.all([UserModel.findById(id, { status: 1 }).lean(), LedgerHoldModel.findById(id).lean()]);
      return !!player && statuses.includes(player.status) && holdAgrees(player.status, hold?.code);
    };
    for (const [i, status] of plan.entries()) {
      const changed = await this.clients.operator('POST', '/users/status', { ids: [id], status, statusReason: 'crash test' });
      const what = `player ${id} set ${plan.slice(0, i + 1).join(', then ')}`;
      const ok = this.file(`status.${status}`, changed, changed.status === 200, {
        // this change or a later one stands, with its hold
        holds: { what, holds: standing(plan.slice(i)) },
        // unanswered and never sent again: the status before or this one, with its hold (never a status without its hold)
        whole: { what, holds: standing(['active', ...plan.slice(0, i + 1)]) },
      });
      if (!ok) return;
    }
  }

  /**
   * A mission's reward raised above its coin's threshold by one operator (it waits), then approved by the second operator (live
   * at the new reward, audited once: `change-decision`), rejected (the reward stays, audited once), or left waiting.
   */
  async rewardChange(decision: Decision) {
    const category = String(this.world.category);
    const coin = String(this.world.brakeCoin);
    const form = (reward: string) => ({
      category,
      coin,
      title: 'Crash brake',
      reward,
      verifyType: 'auto' as const,
      link: 'https://t.me/x',
    });
    const mission = await MissionModel.create({ ...form('10'), reward: Number(toMicros('10')) });
    const missionId = String(mission._id);
    const live = async () => (await MissionModel.findById(missionId).lean())!;
    const raised = await this.clients.operator('PUT', `/missions/${missionId}`, form('3000'));
    const changeId = (raised.body.waiting as { id?: string } | null | undefined)?.id ?? '';
    const what = `reward change of mission ${missionId}`;
    // never live at 3,000 without a second operator: the request leaves the reward live as it was, the change waiting
    const waits = async () => {
      const now = await live();
      return now.reward === Number(toMicros('10')) && (!now.waiting || now.waiting.reward === Number(toMicros('3000')));
    };
    const asked = this.file('reward-change.request', raised, raised.status === 200 && !!changeId, {
      holds: { what, holds: async () => (await live()).waiting?.id === changeId || (await live()).lastDecision?.id === changeId },
      whole: { what, holds: waits },
    });
    if (!asked || decision === 'left-pending') return;
    const verb = decision === 'approved' ? 'approve' : 'reject';
    const body = decision === 'approved' ? { id: changeId } : { id: changeId, rejectReason: 'crash test' };
    const decided = await this.clients.operator('POST', `/missions/${missionId}/reward/${verb}`, body, 'approver');
    const audits = () => AuditEntryModel.countDocuments({ key: `mission-reward:${changeId}` });
    // decided once: the mission as the decision says, the change no longer waiting, one audit
    const applied = async () => {
      const now = await live();
      const reward = decision === 'approved' ? '3000' : '10';
      return (
        now.reward === Number(toMicros(reward)) &&
        !now.waiting &&
        now.lastDecision?.id === changeId &&
        now.lastDecision.status === decision &&
        (await audits()) === 1
      );
    };
    const stillWaits = async () => (await live()).waiting?.id === changeId && (await waits()) && (await audits()) === 0;
    // a repeat of a rejection the kill interrupted is told it was decided (409)
    this.file(`reward-change.${decision}`, decided, decided.status === 200 || (decided.retries > 0 && decided.status === 409), {
      holds: { what: `${what} ${decision}`, holds: applied },
      whole: { what: `${what} ${decision}`, holds: async () => (await applied()) || (await stillWaits()) },
    });
  }

  /**
   * A gift above its coin's threshold: it waits (nothing posted), then the second operator approves it (`gift-approval`:
   * posted once, the request applied), rejects it (nothing posted), or leaves it waiting.
   */
  async giftApproval(player: Player, decision: Decision) {
    const formKey = `crash-big-gift-${randomBytes(6).toString('hex')}`;
    const key = `admin:${formKey}`;
    const asked = await this.clients.operator('POST', `/users/${player.id}/adjustments`, {
      ...{ coin: String(this.world.brakeCoin), amount: '500', direction: 'credit', note: 'crash test', idempotencyKey: formKey },
    });
    const approvalId = typeof asked.body.approvalId === 'string' ? asked.body.approvalId : '';
    const what = `gift ${formKey} above the threshold`;
    const request = () => GiftApprovalModel.findOne({ idempotencyKey: key }, { status: 1, entryId: 1 }).lean();
    const waiting = async () => (await countPosted({ idempotencyKey: key })) === 0 && (await request())?.status === 'pending';
    const ok = this.file('gift-approval.request', asked, asked.status === 202 && !!approvalId, {
      holds: { what, holds: async () => !!(await request()) },
      // nothing given before a second operator approves it
      whole: { what, holds: async () => (await countPosted({ idempotencyKey: key })) === 0 },
    });
    if (!ok || decision === 'left-pending') return;
    const verb = decision === 'approved' ? 'approve' : 'reject';
    const decided = await this.clients.operator(
      'POST',
      `/gifts/${approvalId}/${verb}`,
      decision === 'approved' ? {} : { rejectReason: 'crash test' },
      'approver',
    );
    const done = async () => {
      const now = await request();
      if (decision === 'rejected') return now?.status === 'rejected' && (await countPosted({ idempotencyKey: key })) === 0;
      const line = await LedgerEntryModel.findOne({ idempotencyKey: key, state: 'posted' }, { _id: 1 }).lean();
      return now?.status === 'applied' && now.entryId === String(line?._id) && (await postedOnce({ idempotencyKey: key }));
    };
    // a repeat of a decision the kill interrupted finds it decided (409)
    this.file(`gift-approval.${decision}`, decided, decided.status === 200 || (decided.retries > 0 && decided.status === 409), {
      holds: { what: `${what} ${decision}`, holds: done },
      whole: { what: `${what} ${decision}`, holds: async () => (await done()) || (await waiting()) },
    });
  }

  /**
   * A gift taken back by the operator (`clawback-open`: the claw-back opened and audited once, then `clawback-take`: what the
   * balance covers taken, each take once): the claw-back's `taken` is what its lines took, settled when all is taken.
   */
  async clawBack(player: Player) {
    const giftKey = await this.gift(player);
    if (!giftKey) return;
    const entryId = String((await LedgerEntryModel.findOne({ idempotencyKey: giftKey }, { _id: 1 }).lean())!._id);
    const answer = await this.clients.operator('POST', `/users/${player.id}/claw-backs`, { entryId, reason: 'crash test' });
    const what = `claw-back of ${entryId}`;
    const opened = async (mustBeThere: boolean) => {
      const claw = await ClawBackModel.findOne({ entry: entryId }).lean();
      if (!claw) return !mustBeThere && !(await OperationModel.exists({ key: `clawback-open:${entryId}` }));
      return (await clawBackErrors([claw])).length === 0;
    };
    this.file('claw-back', answer, answer.status === 201, {
      holds: { what, holds: () => opened(true) },
      whole: { what, holds: () => opened(false) },
    });
  }

  /** A player launched for the first time by the load: their id. */
  private async launch(telegramId: number, startParam?: string): Promise<string | null> {
    const launched = await this.clients.player(telegramId, 'home.get', undefined, startParam);
    if (launched.status !== 200) return null;
    return String((await UserModel.findOne({ telegramId }, { _id: 1 }).lean())!._id);
  }

  /**
   * Money permissions asked for a new account by the operator who creates it (`account-grant-ask`: the request listed and audited
   * once), then approved by the second operator (`account-grant`: given once, audited once), rejected, or left waiting.
   */
  async accountGrant(decision: Decision) {
    const username = `crash_clerk_${randomBytes(4).toString('hex')}`;
    const created = await this.clients.operator('POST', '/accounts', {
      username,
      password: 'a long crash clerk password',
      permissions: ['users:read', 'gifts:write'],
    });
    const account = () => AccountModel.findOne({ username }, { _id: 1 }).lean();
    const grants = async () => {
      const found = await account();
      return found ? AccountGrantModel.find({ account: found._id }).lean() : [];
    };
    // listed once (the account is the request's record until then: only a request of the account with none listed is whole)
    const asked = (mustBeThere: boolean) => async () => {
      if (!(await account())) return !mustBeThere;
      const listed = await grants();
      return listed.length === 1 && (await accountGrantErrors(listed)).length === 0;
    };
    const what = `account ${username} asking for gifts:write`;
    // a repeat of a creation the kill interrupted finds the name taken: it was the same account
    const made = created.status === 201 || (created.retries > 0 && created.status < 500 && !!(await account()));
    const ok = this.file('account-grant.ask', created, made, {
      holds: { what, holds: asked(true) },
      whole: { what, holds: asked(false) },
    });
    if (!ok || decision === 'left-pending') return;
    // a repeat answered 409 (the name taken) while the interrupted request is not listed yet: the sweep lists it, the
    // reconciliation checks it is, and there is nothing to decide now
    const [grant] = await grants();
    if (!grant) return;
    const grantId = String(grant._id);
    const verb = decision === 'approved' ? 'approve' : 'reject';
    const body = decision === 'approved' ? {} : { rejectReason: 'crash test' };
    const decided = await this.clients.operator('POST', `/account-grants/${grantId}/${verb}`, body, 'approver');
    const status = async () => (await AccountGrantModel.findById(grantId, { status: 1 }).lean())?.status;
    const outcome = decision === 'approved' ? 'applied' : 'rejected';
    const stands = (statuses: string[]) => async () =>
      statuses.includes((await status()) ?? 'none') && (await asked(true)()) && (await accountGrantErrors(await grants())).length === 0;
    this.file(`account-grant.${decision}`, decided, decided.status === 200 || (decided.retries > 0 && decided.status === 409), {
      holds: { what: `${what} ${decision}`, holds: stands([outcome]) },
      whole: { what: `${what} ${decision}`, holds: stands(['pending', outcome]) },
    });
  }

  /**
   * A fresh player buys a shop item in Stars: the bot makes the invoice, answers Telegram's pre-checkout query, and Telegram
   * delivers the successful_payment to the webhook, twice at once and once more (`stars-payment`: one purchase paid, one boost).
   * Then, if `refund`, the operator refunds it (`stars-refund`: Telegram returns the Stars, the boost is taken back once).
   */
  async stars(kind: StarKind, refund: boolean) {
    const telegramId = this.world.nextTelegramId++;
    if (!(await this.launch(telegramId))) return;
    const invoice = await this.clients.player(telegramId, 'shop.invoice', { offerId: String(this.world.starOffers[kind]) });
    if (invoice.status !== 200) return;
    const purchaseId = (invoice.data as { purchaseId: string }).purchaseId;
    const offer = (await StarPurchaseModel.findById(purchaseId, { stars: 1 }).lean())!;
    const from = { id: telegramId, is_bot: false, first_name: 'Crash', language_code: 'en' };
    const queryId = `crash-pcq-${randomBytes(4).toString('hex')}`;
    await this.clients.webhook(
      { pre_checkout_query: { id: queryId, from, currency: 'XTR', total_amount: offer.stars, invoice_payload: purchaseId } },
      { mayGiveUp: false },
    );
    if (!this.telegram.preCheckoutAnswers.some((answer) => answer.pre_checkout_query_id === queryId && answer.ok)) return;
    const chargeId = `stxCRASH${randomBytes(12).toString('hex')}`;
    const payment = {
      message: {
        message_id: randomInt(1_000_000),
        date: Math.floor(Date.now() / 1000),
        chat: { id: telegramId, type: 'private', first_name: 'Crash' },
        from,
        successful_payment: {
          ...{ currency: 'XTR', total_amount: offer.stars, invoice_payload: purchaseId },
          ...{ telegram_payment_charge_id: chargeId, provider_payment_charge_id: '' },
        },
      },
    };
    // Telegram repeats an update it was not told of: twice at once, and once more (one update id for all)
    const update = { update_id: randomInt(1_000_000_000), ...payment };
    const deliveries = await Promise.all([this.clients.webhook(update), this.clients.webhook(update)]);
    deliveries.push(await this.clients.webhook(update));
    const answered = deliveries.find((delivery) => !delivery.unanswered) ?? deliveries[0];
    const purchase = () => StarPurchaseModel.findById(purchaseId).lean();
    // granted once with its one operation, or (never answered) not paid at all: see purchaseErrors
    const granted = (mustBeThere: boolean) => async () => {
      const now = (await purchase())!;
      if (mustBeThere && now.status === 'pending') return false;
      return (await purchaseErrors([now])).length === 0;
    };
    const what = `Stars payment ${chargeId} (${kind})`;
    const paid = this.file('stars.payment', answered, answered.status === 200, {
      holds: { what, holds: granted(true) },
      whole: { what, holds: granted(false) },
    });
    if (!paid || !refund) return;
    const refunded = await this.clients.operator('POST', `/star-purchases/${purchaseId}/refund`);
    // a repeat of a refund the kill interrupted may find it refunded (409): it was the same refund
    const done = async () => (await purchase())!.status === 'refunded' && (await granted(true)());
    this.file('stars.refund', refunded, refunded.status === 200 || (refunded.retries > 0 && refunded.status === 409), {
      holds: { what: `${what} refunded`, holds: done },
      whole: { what: `${what} refunded`, holds: granted(true) },
    });
  }

  /**
   * A league week of the past ends with prizes set: two fresh players earn a mission's reward (its line dated in that week, the
   * money the product's), the week's table pays ranks 1 and 2 (as an operator saved it while the week was played), and the
   * product's leagues job ends the week: each winner paid once (`league_prize`), told once, the week closed.
   */
  async leagueWeek() {
    const week = this.world.nextPastWeek;
    this.world.nextPastWeek = weekBefore(week);
    const users: string[] = [];
    for (let i = 0; i < 2; i++) {
      const telegramId = this.world.nextTelegramId++;
      const id = await this.launch(telegramId);
      if (!id) continue;
      users.push(id);
      await this.claim({ telegramId, id, code: '' });
    }
    // the rewards were earned during that week (the line's date is what the standings count)
    const { start } = leagueWeekNamed(week, 'UTC');
    await LedgerEntryModel.collection.updateMany(
      { user: { $in: users.map((id) => new Types.ObjectId(id)) }, reason: 'mission' },
      { $set: { createdAt: new Date(start.getTime() + 3_600_000) } },
    );
    const prize = { league: 'bronze', fromRank: 1, toRank: 2, coin: this.world.coin, amount: Number(toMicros('6')) };
    await LeagueWeekModel.create({ _id: idOfKey('league-week', week), week, state: 'open', prizes: [prize] });
    const what = `league week ${week}`;
    const closed = async () => {
      const record = (await LeagueWeekModel.findOne({ week }).lean())!;
      return record.state === 'closed' && (await leagueWeekErrors([record])).length === 0;
    };
    // no call answers it: the job's work, which must be done once the sweep had its turn
    this.file('league-week', { status: 200, body: {}, retries: 0 }, true, {
      holds: { what, holds: closed },
      whole: { what, holds: closed },
    });
  }

  /**
   * A fresh referrer's two friends cleaned up from the console (`cluster-cleanup`): previewed, then confirmed; the friends
   * banned once each, the referral rewards paid for them taken back through one claw-back each, the clean-up audited once.
   */
  async clusterCleanUp() {
    const telegramId = this.world.nextTelegramId++;
    const referrer = await this.launch(telegramId);
    if (!referrer) return;
    const code = (await UserModel.findById(referrer, { referralCode: 1 }).lean())!.referralCode;
    for (let i = 0; i < 2; i++) await this.launch(this.world.nextTelegramId++, code);
    const cluster = { referrer };
    const preview = await this.clients.operator('POST', '/risk/clean-up/preview', { cluster });
    if (preview.status !== 200) return;
    const key = preview.body.key as string;
    const confirmed = await this.clients.operator('POST', '/risk/clean-up', { cluster, key, statusReason: 'crash test' });
    const what = `clean-up of the friends of ${referrer}`;
    const carried = (mustBeThere: boolean) => async () => {
      const record = await ClusterCleanUpModel.findOne({ key }).lean();
      if (!record) {
        const banned = await UserModel.countDocuments({ referrer, status: 'banned' });
        return !mustBeThere && banned === 0 && !(await OperationModel.exists({ key: `cluster-cleanup:${key}` }));
      }
      return (await cleanUpErrors([record])).length === 0;
    };
    this.file('cluster-cleanup', confirmed, confirmed.status === 200, {
      holds: { what, holds: carried(true) },
      whole: { what, holds: carried(false) },
    });
  }
}

function countPosted(filter: Record<string, unknown>) {
  return LedgerEntryModel.countDocuments({ ...filter, state: 'posted' });
}
async function postedOnce(filter: Record<string, unknown>) {
  return (await countPosted(filter)) === 1;
}
/** Taken effect once, or not at all (an operation left unfinished is counted apart: pending after the sweep). */
async function postedAtMostOnce(filter: Record<string, unknown>) {
  return (await countPosted(filter)) <= 1;
}

type Walk = (load: Load, world: World) => Promise<void>;

/**
 * The operation that reaches a fault point, by its kind (`ledger:after-step:mission-reject`) or else the module the kind is
 * named after (`withdrawal-request`: `withdrawal`); a point named after no operation (the engine's, which every operation
 * passes) is tried with each in turn until one reaches it.
 */
const OPERATION_FOR: Record<string, Walk> = {
  gift: (load, world) => load.gift(world.players[0]!).then(() => undefined),
  mission: (load, world) => load.claim(world.players[1]!),
  mining: (load, world) => load.mining(world.players[2]!),
  referral: (load, world) => load.referral(world.players[3]!),
  withdrawal: (load, world) => load.withdrawal(world.players[4]!, 'rejected'),
  stake: (load, world) => load.stake(world.players[5]!),
  // reached by the hot wallet's sender in the payouts job, once a withdrawal is approved
  payout: (load, world) => load.withdrawal(world.players[4]!, 'approved'),
  'mission-start': (load, world) => load.manual(world.players[1]!, 'left-pending'),
  'mission-review': (load, world) => load.manual(world.players[1]!, 'left-pending'),
  'mission-reject': (load, world) => load.manual(world.players[1]!, 'rejected'),
  'player-status': (load) => load.status(['frozen', 'active']),
  'change-request': (load) => load.rewardChange('left-pending'),
  'change-decision': (load) => load.rewardChange('approved'),
  'gift-approval': (load, world) => load.giftApproval(world.players[0]!, 'approved'),
  'clawback-open': (load, world) => load.clawBack(world.players[0]!),
  'clawback-take': (load, world) => load.clawBack(world.players[0]!),
  'account-grant-ask': (load) => load.accountGrant('left-pending'),
  'account-grant': (load) => load.accountGrant('approved'),
  // reached by the leagues job once the week is set up
  league_prize: (load) => load.leagueWeek(),
  'stars-payment': (load) => load.stars('extraSession', false),
  'stars-refund': (load) => load.stars('streakFreeze', true),
  'cluster-cleanup': (load) => load.clusterCleanUp(),
};
/**
 * The engine's points armed per kind, for every kind the load reaches (the hot wallet's `payout-batch` is tonChain.ts's): after
 * recording, after applying (a posting, or an admit's change of a kind with no postings) and after a step, where a kind has one.
 */
const POINTS_OF_KIND: Record<string, readonly string[]> = {
  'mission-credit': ENGINE_FAULT_POINTS,
  'mission-start': ENGINE_FAULT_POINTS,
  'mission-review': ENGINE_FAULT_POINTS,
  'mission-reject': ENGINE_FAULT_POINTS,
  // no steps: its admit check marks the session
  'mining-move': ['ledger:after-record', 'ledger:after-apply'],
  'stake-open': ENGINE_FAULT_POINTS,
  'stake-claim': ENGINE_FAULT_POINTS,
  // with its step (the referrer told)
  'referral-reward': ENGINE_FAULT_POINTS,
  'player-status': ENGINE_FAULT_POINTS,
  'change-request': ENGINE_FAULT_POINTS,
  'change-decision': ENGINE_FAULT_POINTS,
  'withdrawal-request': ENGINE_FAULT_POINTS,
  'withdrawal-decision': ENGINE_FAULT_POINTS,
  // with its step (its audit)
  'gift-adjustment': ENGINE_FAULT_POINTS,
  'gift-approval': ENGINE_FAULT_POINTS,
  // no admit and no postings: nothing between its record and its steps
  'clawback-open': ['ledger:after-record', 'ledger:after-step'],
  'clawback-take': ENGINE_FAULT_POINTS,
  // recorded before the account's write: its admit finds the request there
  'account-grant-ask': ENGINE_FAULT_POINTS,
  'account-grant': ENGINE_FAULT_POINTS,
  league_prize: ENGINE_FAULT_POINTS,
  // no admit and no postings (Stars are no coin of the app): nothing between the record and the steps
  'stars-payment': ['ledger:after-record', 'ledger:after-step'],
  // its admit has Telegram return the Stars
  'stars-refund': ENGINE_FAULT_POINTS,
  'cluster-cleanup': ['ledger:after-record', 'ledger:after-step'],
};
const KIND_FAULT_POINTS = Object.entries(POINTS_OF_KIND).flatMap(([kind, points]) => points.map((point) => `${point}:${kind}`));
/**
 * A kind no route of this version records: an older version's mission credit (missions.kinds.ts), registered so that one it left
 * is finished as it stands. The load cannot reach it; every other registered kind it must leave done at least once.
 */
const OLDER_VERSIONS_ONLY = ['mission'];
/** The kinds the load must leave done at least once, read from the registry (the reconciliation counts those it never did). */
function loadKinds(): string[] {
  registerMoneyKinds();
  return registeredKinds().filter((kind) => !OLDER_VERSIONS_ONLY.includes(kind));
}
function operationsReaching(point: string): Walk[] {
  // `ledger:after-step:stake-open` is reached by the stake walk: a kind is named after its module
  const [module, , kind] = point.split(':');
  const own = (kind && OPERATION_FOR[kind]) || OPERATION_FOR[kind ? kind.split('-')[0]! : module!];
  return own ? [own, ...Object.values(OPERATION_FOR).filter((walk) => walk !== own)] : Object.values(OPERATION_FOR);
}
/** How long a point reached by a job (a payout's, by the payouts job) may take to be reached after the operation that leads to it. */
const SWEEP_REACHES_WITHIN_MS = 10_000;

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
    // nor a second approver of payouts, nor a daily cap: the hot wallet pays whatever one operator approves
    payoutApprovalAbove: '0',
    payoutDailyCap: '0',
  });
  // the brakes on: a gift or a mission reward above 100 waits for the second operator
  const brakeCoin = await GiftCoinModel.create({
    ...{ name: 'Crash Brake Coin', symbol: 'BRAKE', decimals: 9, minWithdraw: '1', network: 'ton' },
    ...{ giftApprovalAbove: '100', operatorDailyLimit: '0', payoutApprovalAbove: '0', payoutDailyCap: '0' },
  });
  // the second operator, independent of the first (neither made nor empowered by them)
  await AccountModel.create({
    username: APPROVER.username,
    passwordHash: await bcrypt.hash(APPROVER.password, 10),
    permissions: ['*'],
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
        timezone: 'UTC',
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
  const starOffers = {} as World['starOffers'];
  for (const [i, kind] of STAR_KINDS.entries())
    starOffers[kind] = (
      await StarOfferModel.create({ title: `Crash ${kind}`, kind, stars: 10 + i, multiplierPercent: kind === 'multiplier' ? 150 : null })
    )._id;
  return {
    ...{ coin: coin._id, brakeCoin: brakeCoin._id, offer: offer._id, category: category._id, starOffers },
    nextTelegramId: 900_000_000 + randomInt(1_000_000) * 10,
    // the leagues' weeks follow App Config's timezone (UTC here); the week before this one is the job's own to close
    nextPastWeek: weekBefore(weekBefore(leagueWeekOf(new Date(), 'UTC').key)),
  };
}

/** Runs the whole crash test and reconciles; the caller decides what to do with the findings. */
export async function runCrashTest(options: CrashTestOptions): Promise<CrashTestReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();

  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  // the hot wallet's chain: the product pays from it, and this process reads what it sent
  const ton = await startHotWalletChain();
  // Telegram's side: the bot's invoices, its webhook's updates, the Stars it refunds, the messages it sends players
  const telegram = await startBotApiStandIn(TEST_BOT_TOKEN);
  const product = new ProductProcess(
    options.mongoUrl,
    {
      ...ton.productEnv,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      ...(options.mutation ? { GIFT_MUTATION: options.mutation } : {}),
    },
    log,
  );
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
    const load = new Load(clients, world, ton.timesSent, telegram);
    for (const player of players) await load.gift(player, '1000');

    // 1. exactly at every fault point, one at a time: the product's own list, then the hot wallet's
    const points = [...new Set<string>([...FAULT_POINTS, ...KIND_FAULT_POINTS, ...PAYOUT_FAULT_POINTS])];
    const unreached: string[] = [];
    log(`walking through ${points.length} fault points`);
    for (const point of points) {
      await product.arm([point]);
      await clients.signIn();
      let reached = false;
      for (const operation of operationsReaching(point)) {
        await operation(load, world);
        if ((reached = await product.killedAt(point, SWEEP_REACHES_WITHIN_MS))) break;
      }
      if (!reached) unreached.push(point);
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

    // 3. the last restart, the jobs' turn (the sweep and the hot wallet's payouts), then every record against the ledger and the chain
    await product.get();
    log('waiting for the recovery sweep');
    const result = await findings(
      {
        acknowledged: load.acknowledged,
        unanswered: load.unanswered,
        timesSent: ton.timesSent,
        unreached,
        kinds: loadKinds(),
        starsRefunded: telegram.refunds,
      },
      { settleMs: 30_000 },
    );
    const [approved, paid, kinds] = await Promise.all([
      WithdrawalModel.countDocuments({ coin: world.coin, approvedAt: { $ne: null } }),
      WithdrawalModel.countDocuments({ coin: world.coin, status: 'done', 'payout.bodyHash': { $nin: ['', null] } }),
      operationsByKind(),
    ]);
    return {
      findings: result,
      points,
      killsAtPoint: product.killsAtPoint,
      randomKills: product.randomKills,
      crashedCalls: clients.crashedCalls,
      payouts: { approved, paid },
      operations: load.counts,
      kinds,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await product.stop();
    await ton.close();
    await telegram.close();
  }
}

/** The engine's operations the run left done, by kind (a refused one leaves none). */
async function operationsByKind(): Promise<CrashTestReport['kinds']> {
  const rows = await OperationModel.aggregate<{ _id: string; n: number }>([
    { $match: { state: 'done' } },
    { $group: { _id: '$kind', n: { $sum: 1 } } },
  ]);
  return Object.fromEntries(rows.map((row) => [row._id, row.n]));
}

/** The report as the command prints it. */
export function formatReport(report: CrashTestReport): string {
  const lines = [`crash test: ${report.seconds.toFixed(1)} s`, '', 'kills:'];
  for (const point of report.points) lines.push(`  ${point.padEnd(28)} ${report.killsAtPoint[point] ?? 0}`);
  lines.push(`  ${'random moments'.padEnd(28)} ${report.randomKills}`);
  const { retried, neverRetried } = report.crashedCalls;
  lines.push(
    '',
    `calls a kill left unanswered: ${retried + neverRetried} (${retried} sent again, ${neverRetried} never: the sweep's alone)`,
  );
  lines.push(`payouts: ${report.payouts.approved} approved, ${report.payouts.paid} paid by the hot wallet on the chain`);
  lines.push('', 'operations (acknowledged / refused / never answered):');
  for (const [name, row] of Object.entries(report.operations))
    lines.push(`  ${name.padEnd(28)} ${row.acknowledged} / ${row.refused} / ${row.unanswered}`);
  lines.push('', 'money kinds (operations done):');
  for (const [kind, done] of Object.entries(report.kinds).sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`  ${kind.padEnd(28)} ${done}`);
  lines.push('', 'findings (each must be 0):');
  for (const [name, value] of Object.entries(report.findings.counts)) lines.push(`  ${name.padEnd(34)} ${value}`);
  for (const detail of report.findings.details.slice(0, 20)) lines.push(`  ! ${detail}`);
  return lines.join('\n');
}
