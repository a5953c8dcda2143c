import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mongoose from 'mongoose';
import { toMicros } from '@gift/shared';
import { withDatabaseName } from '../src/db/connect';
import { AccountModel } from '../src/modules/accounts/account.model';
import { AccountGrantModel } from '../src/modules/accounts/accountGrant.model';
import { AuditEntryModel } from '../src/modules/audit/audit.model';
import { GiftCoinModel } from '../src/modules/coins/giftCoin.model';
import { CategoryModel } from '../src/modules/content/content.models';
import { LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { OperationModel } from '../src/modules/ledger/operation.model';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { StarOfferModel } from '../src/modules/shop/shop.models';
import { StakingCoinModel } from '../src/modules/staking/staking.models';
import { UserModel } from '../src/modules/users/user.model';
import { createCoin, mineInFreshCoin } from './factories';
import { createOperator, OPERATOR_PASSWORD } from './operators';
import { enrolTotp } from './totp';
import { productProcessEnv, startProductProcess, type StartedProduct } from './productProcess';
import { tmaHeader } from './telegram';

/**
 * The waits a second operator decides, across `kill -9`: the compiled product is killed at each fault point of an
 * account's grant of money permissions and of a mission's reward change, twice (two requests left half-done), and started
 * again without it. One request is left to the product alone (its start-up and sweep), the other is repeated by its
 * operator; both end as decided, exactly once: the permission held exactly when approved, the decision and its audit
 * recorded once, the mission live at the approved reward (or still at the old one), and a player's claim credited once.
 */
jest.setTimeout(120_000);

const SERVER_DIR = path.resolve(__dirname, '..');
const BUILD = 'dist/brake-crash/index.js';
const SUPER_ADMIN = { username: 'brake-crash', password: 'a long operator password' };
/**
 * The sweep finishes what is older than this: far older than a request the test repeats right after the restart, and than
 * the processes of one test take on a loaded machine (over 30 s: at 30 s the sweep finished what the test left for later),
 * so the repeat alone finishes that one; the request left to the sweep is aged past it, as if the product had stayed down.
 */
const GRACE_MS = 120_000;
const aged = () => new Date(Date.now() - 5 * 60_000);

let mongoUrl: string;
const running = new Set<StartedProduct>();

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
}, 120_000);

afterAll(async () => {
  for (const product of running) product.child.kill('SIGKILL');
  await Promise.all([...running].map((product) => product.exited));
});

/** The product with these fault points armed (none: as in production). */
function start(points: string[] = []): StartedProduct {
  const product = startProductProcess(
    BUILD,
    productProcessEnv(mongoUrl, SUPER_ADMIN, { NODE_ENV: 'test', GIFT_FAULT_POINTS: points.join(','), SWEEP_GRACE_MS: String(GRACE_MS) }),
  );
  running.add(product);
  void product.exited.then(() => running.delete(product));
  return product;
}

async function stop(product: StartedProduct) {
  product.child.kill('SIGTERM');
  await product.exited;
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON the product answered, read by the checks
  body: any;
}

/** One HTTP request, as a client sends it once; null when the process died under it (no answer). */
async function send(base: string, method: string, pathname: string, init: { token?: string; body?: unknown; headers?: object } = {}) {
  try {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  } catch {
    return null;
  }
}

/** Two console operators signed in: one asks, the other (independent of the first) decides. */
async function operators(base: string) {
  const [asker, approver] = await Promise.all([createOperator(['*']), createOperator(['*'])]);
  const signIn = async (username: string) =>
    (await send(base, 'POST', '/api/admin/login', { body: { username, password: OPERATOR_PASSWORD } }))!.body.token as string;
  const tokens = { asker: await signIn(asker.account.username), approver: await signIn(approver.account.username) };
  // production: an account that moves money does so with two-step sign-in on
  for (const token of Object.values(tokens)) await enrolTotp((method, pathname, body) => send(base, method, pathname, { token, body }));
  return (who: keyof typeof tokens, on: string, method: string, pathname: string, body?: unknown) =>
    send(on, method, `/api/admin${pathname}`, { token: tokens[who], body });
}
type Console = Awaited<ReturnType<typeof operators>>;

/** Starts the product armed at `point`, runs `drive`, whose last request the product must die under there. */
async function killedAt(point: string, drive: (base: string) => Promise<Answer | null>) {
  const product = start([point]);
  const answer = await drive(await product.listening);
  const { signal, stderr } = await product.exited;
  expect(answer).toBeNull();
  expect(signal).toBe('SIGKILL');
  expect(stderr).toContain(`fault point ${point}: killing the process`);
}

async function waitFor<T>(read: () => Promise<T>, expected: T, what: string, seconds = 30): Promise<void> {
  for (let tries = 0; tries < seconds * 5; tries++) {
    if (JSON.stringify(await read()) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect({ what, state: await read() }).toEqual({ what, state: expected });
}

const name = (prefix: string) => `${prefix}_${randomBytes(3).toString('hex')}`;
const audits = (key: string) => AuditEntryModel.countDocuments({ key });

// ---------------------------------------------------------------------------------------------------------
// An account's grant of money permissions

/** What the operators would see of an account and its requests for access: what it holds, and each request and audit, counted. */
async function access(accountId: string) {
  const account = (await AccountModel.findById(accountId).lean())!;
  const requests = await AccountGrantModel.find({ account: accountId }).lean();
  const ids = requests.map((request) => String(request._id));
  let asked = 0;
  let decided = 0;
  for (const id of ids) {
    asked += await audits(`account-grant-asked:${id}`);
    decided += await audits(`account-grant:${id}`);
  }
  return {
    permissions: [...account.permissions].sort(),
    waiting: !!account.pendingGrant,
    requests: requests.map((request) => request.status),
    // permissions given through an approval, each recorded with it
    approvedEntries: account.grants.filter((entry) => entry.grant).length,
    asked,
    decided,
  };
}

const approvedAccess = (permissions: string[]) => ({
  permissions,
  waiting: false,
  requests: ['applied'],
  approvedEntries: 1,
  asked: 1,
  decided: 1,
});

async function createAccount(api: Console, base: string, permissions: string[]) {
  const created = await api('asker', base, 'POST', '/accounts', {
    username: name('clerk'),
    password: 'a long clerk password',
    permissions,
  });
  expect(created?.status).toBe(201);
  return String(created!.body.id);
}

/** The id of the request for access an account carries. */
const askedOf = async (accountId: string) =>
  String(((await AccountModel.findById(accountId).lean())!.pendingGrant as { _id?: unknown } | null)?._id);

const grantOf = async (accountId: string) => String((await AccountGrantModel.findOne({ account: accountId }).lean())!._id);

describe("an account's grant of money permissions across kill -9", () => {
  // the ask's operation (account-grant-ask): after the account's write, after its admit found the request on the account
  it.each(['ledger:after-record:account-grant-ask', 'ledger:after-apply:account-grant-ask'])(
    'asked at %s, is listed once by the sweep alone and by a repeat of the edit, and given once approved',
    async (point) => {
      let api!: Console;
      let fresh = '';
      let edited = '';
      const edit = (base: string) =>
        api('asker', base, 'PUT', `/accounts/${edited}`, {
          username: editedName,
          permissions: ['users:read', 'withdraws:write'],
          enabled: true,
          password: '',
        });
      const editedName = name('edited');
      // a new account asking for gifts:write, killed after its write and before the request is listed
      await killedAt(point, async (base) => {
        api = await operators(base);
        const username = name('fresh');
        const answer = await api('asker', base, 'POST', '/accounts', {
          username,
          password: 'a long clerk password',
          permissions: ['users:read', 'gifts:write'],
        });
        fresh = String((await AccountModel.findOne({ username }).lean())?._id);
        return answer;
      });
      // an existing account edited to ask for withdraws:write, killed at the same place
      await killedAt(point, async (base) => {
        const created = await api('asker', base, 'POST', '/accounts', {
          username: editedName,
          password: 'a long clerk password',
          permissions: ['users:read'],
        });
        edited = String(created!.body.id);
        return edit(base);
      });
      for (const id of [fresh, edited])
        expect(await access(id)).toMatchObject({ permissions: ['users:read'], waiting: true, requests: [] });
      // the ask is an operation of the engine: its age is the sweep's grace
      await OperationModel.collection.updateOne(
        { kind: 'account-grant-ask', refId: await askedOf(fresh) },
        { $set: { createdAt: aged() } },
      );

      const product = start();
      try {
        const base = await product.listening;
        // the operator saves the edit again: the same request, not a second one, listed by this save, and still nothing given
        const asking = await askedOf(edited);
        const again = await edit(base);
        expect(again?.status).toBe(200);
        expect(await askedOf(edited)).toBe(asking);
        const listed = { permissions: ['users:read'], waiting: true, requests: ['pending'], approvedEntries: 0, asked: 1, decided: 0 };
        expect(await access(edited)).toEqual(listed);
        // nobody repeats the new account's: the sweep lists it once, audited as asked by the operator who asked
        await waitFor(() => access(fresh), listed, "the new account's request listed");
        for (const id of [fresh, edited]) {
          const approved = await api('approver', base, 'POST', `/account-grants/${await grantOf(id)}/approve`);
          expect(approved).toMatchObject({ status: 200, body: { status: 'applied' } });
        }
        expect(await access(fresh)).toEqual(approvedAccess(['gifts:write', 'users:read']));
        expect(await access(edited)).toEqual(approvedAccess(['users:read', 'withdraws:write']));
      } finally {
        await stop(product);
      }
    },
  );

  // the decision's operation (account-grant): once its admit took the decision, after the account's write, after the audit
  it.each([
    ['ledger:after-apply:account-grant', 'approve'],
    ['ledger:after-step:account-grant:account', 'approve'],
    ['ledger:after-step:account-grant:audit', 'approve'],
    ['ledger:after-apply:account-grant', 'reject'],
  ] as const)('%s: the %s is finished once, by the sweep alone and by the approver repeating it', async (point, decision) => {
    let api!: Console;
    const accounts: string[] = [];
    const decide = (base: string, accountId: string) =>
      api(
        'approver',
        base,
        'POST',
        `/account-grants/${grants.get(accountId)}/${decision}`,
        decision === 'reject' ? { rejectReason: 'Not for a clerk' } : {},
      );
    const grants = new Map<string, string>();
    // two accounts asking for gifts:write; the decision on each is killed at the point, in a process of its own
    await killedAt(point, async (base) => {
      api = await operators(base);
      for (let i = 0; i < 2; i++) {
        const id = await createAccount(api, base, ['users:read', 'gifts:write']);
        accounts.push(id);
        grants.set(id, await grantOf(id));
      }
      return decide(base, accounts[0]!);
    });
    await killedAt(point, (base) => decide(base, accounts[1]!));
    const [leftToSweep, repeated] = accounts as [string, string];
    for (const id of accounts) {
      // never half given: the permission and its record come in one write, with the request it clears
      const half = await access(id);
      expect(half.permissions.includes('gifts:write')).toBe(half.approvedEntries === 1);
      expect(half.waiting).toBe(half.approvedEntries === 0);
      if (decision === 'reject') expect(half.permissions).toEqual(['users:read']);
    }
    // the decision is an operation of the engine: its age is the sweep's grace
    await OperationModel.collection.updateOne({ kind: 'account-grant', refId: grants.get(leftToSweep) }, { $set: { createdAt: aged() } });

    const product = start();
    try {
      const base = await product.listening;
      const expected =
        decision === 'approve'
          ? approvedAccess(['gifts:write', 'users:read'])
          : { permissions: ['users:read'], waiting: false, requests: ['rejected'], approvedEntries: 0, asked: 1, decided: 1 };
      // the approver repeats the decision that went unanswered: it finishes it (the sweep leaves a seconds-old one alone)
      const again = await decide(base, repeated);
      expect(again).toMatchObject({ status: 200, body: { status: decision === 'approve' ? 'applied' : 'rejected' } });
      expect(await access(repeated)).toEqual(expected);
      // nobody repeats the other: the product's sweep finishes it
      await waitFor(() => access(leftToSweep), expected, 'the sweep to finish the decision');
      // a further repeat changes nothing
      expect((await decide(base, repeated))?.status).toBe(200);
      for (const id of accounts) expect(await access(id)).toEqual(expected);
    } finally {
      await stop(product);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// A mission's reward change

async function missionSetting() {
  // a fresh coin: its threshold is on by default (a reward above 1,000 waits for a second operator)
  const coin = await createCoin();
  const category = await CategoryModel.create({ title: name('Stories') });
  const form = (reward: string) => ({
    category: String(category._id),
    coin: String(coin._id),
    title: name('Share the channel'),
    reward,
    verifyType: 'auto',
    link: 'https://t.me/x',
  });
  return { coin, form };
}

/** The mission as players get it: live or not, its reward (micro-units) and what waits. */
async function liveState(missionId: string) {
  const mission = (await MissionModel.findById(missionId).lean())!;
  return { enabled: mission.enabled, reward: mission.reward, waiting: mission.waiting?.reward ?? null };
}

let nextTelegramId = 810_000_000 + Math.floor(Math.random() * 1_000_000) * 10;

/** A new player opens the app, starts the mission and claims it twice: what the ledger credited them for it. */
async function claimTwice(base: string, missionId: string) {
  const telegramId = nextTelegramId++;
  const headers = { authorization: tmaHeader({ user: { id: telegramId, first_name: 'Brake' } }) };
  expect((await send(base, 'GET', '/trpc/home.get', { headers }))?.status).toBe(200);
  const mutate = (procedure: string) => send(base, 'POST', `/trpc/missions.${procedure}`, { headers, body: { json: { missionId } } });
  expect((await mutate('go'))?.status).toBe(200);
  expect((await mutate('claim'))?.status).toBe(200);
  const second = await mutate('claim');
  expect(second?.status).toBeGreaterThanOrEqual(400);
  expect(second?.status).toBeLessThan(500);
  const player = (await UserModel.findOne({ telegramId }).lean())!;
  const progress = (await UserMissionModel.findOne({ user: player._id, mission: missionId }).lean())!;
  const entries = await LedgerEntryModel.find({ user: player._id, reason: 'mission', state: 'posted' }).lean();
  expect(entries.map((entry) => entry.refId)).toEqual(entries.map(() => String(progress._id)));
  return entries.map((entry) => BigInt(entry.amount));
}

describe("a mission's reward change across kill -9", () => {
  it('asked at ledger:after-record:change-request, waits (the old reward stays live), audited once, until decided once', async () => {
    const { form } = await missionSetting();
    let api!: Console;
    const missions: string[] = [];
    const raise = (base: string, missionId: string) => api('asker', base, 'PUT', `/missions/${missionId}`, form('3000'));
    // two live missions paying 10; raising each to 3,000 is killed after the edit's write, in a process of its own
    await killedAt('ledger:after-record:change-request', async (base) => {
      api = await operators(base);
      for (let i = 0; i < 2; i++) {
        const created = await api('asker', base, 'POST', '/missions', form('10'));
        expect(created?.body).toMatchObject({ enabled: true, reward: '10', waiting: null });
        missions.push(String(created!.body.id));
      }
      return raise(base, missions[0]!);
    });
    await killedAt('ledger:after-record:change-request', (base) => raise(base, missions[1]!));
    const [leftAlone, repeated] = missions as [string, string];
    const waits = { enabled: true, reward: Number(toMicros('10')), waiting: Number(toMicros('3000')) };
    for (const id of missions) expect(await liveState(id)).toEqual(waits);
    const crashedChange = (await MissionModel.findById(repeated).lean())!.waiting!.id;
    const leftChange = (await MissionModel.findById(leftAlone).lean())!.waiting!.id;
    // the edits' audits are their requests' steps, not reached yet
    for (const id of missions) expect(await AuditEntryModel.countDocuments({ resource: 'missions', record: id, action: 'update' })).toBe(0);
    // the request is an operation of the engine: its age is the sweep's grace
    await OperationModel.collection.updateOne({ kind: 'change-request', refId: leftAlone }, { $set: { createdAt: aged() } });

    const product = start();
    try {
      const base = await product.listening;
      // the operator saves the edit again: one change waits (the latest), the live reward is still 10
      const again = await raise(base, repeated);
      expect(again).toMatchObject({ status: 200, body: { enabled: true, reward: '10', waiting: { reward: '3000' } } });
      expect(await liveState(repeated)).toEqual(waits);
      // the crashed edit audited first, by this save, then the save itself: each once
      const edits = async (id: string) =>
        (await AuditEntryModel.find({ resource: 'missions', record: id, action: 'update' }).sort({ _id: 1 }).lean()).map((e) => e.key);
      expect(await edits(repeated)).toEqual([
        `change-request:missions:${crashedChange}`,
        `change-request:missions:${again!.body.waiting.id}`,
      ]);
      // nobody saves the other again: the sweep audits its edit once
      await waitFor(() => edits(leftAlone), [`change-request:missions:${leftChange}`], 'the sweep to audit the edit');
      // the other one, left alone, waits as asked
      const read = await api('approver', base, 'GET', `/missions/${leftAlone}`);
      expect(read?.body).toMatchObject({ enabled: true, reward: '10', waiting: { reward: '3000' } });

      // the second operator turns the first down: it stays at 10
      const rejected = await api('approver', base, 'POST', `/missions/${leftAlone}/reward/reject`, {
        id: read!.body.waiting.id,
        rejectReason: 'Too much',
      });
      expect(rejected).toMatchObject({ status: 200, body: { enabled: true, reward: '10', waiting: null } });
      // and approves the second's latest change; the change the crash left behind was replaced, and applies nothing
      expect((await api('approver', base, 'POST', `/missions/${repeated}/reward/approve`, { id: crashedChange }))?.status).toBe(409);
      const approved = await api('approver', base, 'POST', `/missions/${repeated}/reward/approve`, { id: again!.body.waiting.id });
      expect(approved).toMatchObject({ status: 200, body: { enabled: true, reward: '3000', waiting: null } });
      expect(await liveState(leftAlone)).toEqual({ enabled: true, reward: Number(toMicros('10')), waiting: null });
      expect(await liveState(repeated)).toEqual({ enabled: true, reward: Number(toMicros('3000')), waiting: null });
      expect(await audits(`mission-reward:${String(read!.body.waiting.id)}`)).toBe(1);
      expect(await audits(`mission-reward:${String(again!.body.waiting.id)}`)).toBe(1);

      // players are credited once, at the reward live
      expect(await claimTwice(base, leftAlone)).toEqual([toMicros('10')]);
      expect(await claimTwice(base, repeated)).toEqual([toMicros('3000')]);
    } finally {
      await stop(product);
    }
  });

  it('approved at ledger:after-apply:change-decision, is live at the new reward once and audited once, by the sweep alone and by a repeat', async () => {
    const { form } = await missionSetting();
    let api!: Console;
    const missions: string[] = [];
    const changes = new Map<string, string>();
    const approve = (base: string, missionId: string) =>
      api('approver', base, 'POST', `/missions/${missionId}/reward/approve`, { id: changes.get(missionId) });
    // two live missions paying 10 raised to 3,000 (waiting); each approval is killed after its decision's write, before its
    // audit step, in a process of its own
    await killedAt('ledger:after-apply:change-decision', async (base) => {
      api = await operators(base);
      for (let i = 0; i < 2; i++) {
        const id = String((await api('asker', base, 'POST', '/missions', form('10')))!.body.id);
        const raised = await api('asker', base, 'PUT', `/missions/${id}`, form('3000'));
        expect(raised?.body).toMatchObject({ reward: '10', waiting: { reward: '3000' } });
        missions.push(id);
        changes.set(id, String(raised!.body.waiting.id));
      }
      return approve(base, missions[0]!);
    });
    await killedAt('ledger:after-apply:change-decision', (base) => approve(base, missions[1]!));
    const [leftToSweep, repeated] = missions as [string, string];
    const live = { enabled: true, reward: Number(toMicros('3000')), waiting: null };
    // the approval's one write put each live: never half
    for (const id of missions) expect(await liveState(id)).toEqual(live);
    // the decision is an operation of the engine (accounts/changeDecision.kinds.ts): its age is the sweep's grace
    await OperationModel.collection.updateOne({ kind: 'change-decision', refId: leftToSweep }, { $set: { createdAt: aged() } });
    const audited = (id: string) => audits(`mission-reward:${changes.get(id)}`);

    const product = start();
    try {
      const base = await product.listening;
      // the approver repeats the approval that went unanswered: audited once, nothing applied twice
      const again = await approve(base, repeated);
      expect(again).toMatchObject({ status: 200, body: { enabled: true, reward: '3000', waiting: null } });
      expect(await audited(repeated)).toBe(1);
      // nobody repeats the other: the sweep audits it, as the approver's
      await waitFor(() => audited(leftToSweep), 1, 'the sweep to audit the approval');
      const entry = (await AuditEntryModel.findOne({ key: `mission-reward:${changes.get(leftToSweep)}` }).lean())!;
      expect(entry).toMatchObject({ action: 'review', resource: 'missions', record: leftToSweep });
      expect(String(entry.account)).toBe(String((await MissionModel.findById(leftToSweep).lean())!.lastDecision!.decidedBy));
      expect((await approve(base, repeated))?.status).toBe(200);
      for (const id of missions) {
        expect(await liveState(id)).toEqual(live);
        expect(await audited(id)).toBe(1);
        expect(await claimTwice(base, id)).toEqual([toMicros('3000')]);
      }
    } finally {
      await stop(product);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// A coin's brakes, a staking offer's terms, a Stars offer's terms held for a second operator

/** A record saved under its brake (`body`), and the edit raising it above (`raise`): a fresh one each call. */
const HELD_SOURCES = [
  {
    resource: 'gift-coins',
    model: GiftCoinModel,
    record: () => {
      const coin = { name: 'Points', symbol: `P${randomBytes(2).toString('hex').toUpperCase()}`, network: 'jetton' };
      return Promise.resolve({ body: coin, raise: { ...coin, giftApprovalAbove: '0' } });
    },
  },
  {
    resource: 'staking-coins',
    model: StakingCoinModel,
    // 1,000 at 50 % earns 500, under the coin's 1,000; 100,000 at 1,000 % far above it
    record: async () => {
      const coin = String((await createCoin())._id);
      const offer = (maxAmount: string, year: string) => ({ coin, minAmount: '1', maxAmount, profits: { year } });
      return { body: offer('1000', '50'), raise: offer('100000', '1000') };
    },
  },
  {
    resource: 'star-offers',
    model: StarOfferModel,
    // weighed in the mining coin at App Config's session amount (set below): ×10 for 1 Star buys far above its threshold
    record: () => {
      const offer = { title: name('Boost'), kind: 'multiplier', stars: 50, multiplierPercent: 200 };
      return Promise.resolve({ body: offer, raise: { ...offer, stars: 1, multiplierPercent: 1000 } });
    },
  },
] as const;

describe("a coin's, a staking offer's and a Stars offer's held change across kill -9", () => {
  beforeAll(async () => {
    await mineInFreshCoin();
  });

  it.each(HELD_SOURCES)(
    '$resource: asked at ledger:after-record:change-request, audited once by the sweep alone and by a repeat, decided once',
    async ({ resource, model, record }) => {
      let api!: Console;
      const saved: Array<{ id: string; raise: object }> = [];
      const raise = (base: string, index: number) => api('asker', base, 'PUT', `/${resource}/${saved[index]!.id}`, saved[index]!.raise);
      // two records under the brake; raising each is killed after the save's write, in a process of its own
      await killedAt('ledger:after-record:change-request', async (base) => {
        api = await operators(base);
        for (let i = 0; i < 2; i++) {
          const { body, raise: raised } = await record();
          const created = await api('asker', base, 'POST', `/${resource}`, body);
          expect([created?.status, created?.body.waitingChange]).toEqual([201, null]);
          saved.push({ id: String(created!.body.id), raise: raised });
        }
        return raise(base, 0);
      });
      await killedAt('ledger:after-record:change-request', (base) => raise(base, 1));
      const [leftAlone, repeated] = saved.map((one) => one.id) as [string, string];
      const waitingOf = async (id: string) =>
        String(
          ((await model.collection.findOne({ _id: new mongoose.Types.ObjectId(id) })) as { waitingChange?: { id: string } } | null)
            ?.waitingChange?.id,
        );
      const crashed = await waitingOf(repeated);
      const left = await waitingOf(leftAlone);
      const edits = async (id: string) =>
        (await AuditEntryModel.find({ resource, record: id, action: 'update' }).sort({ createdAt: 1, _id: 1 }).lean()).map((e) => e.key);
      // the saves' audits are their requests' steps, not reached yet
      for (const id of [leftAlone, repeated]) expect(await edits(id)).toEqual([]);
      await OperationModel.collection.updateOne({ kind: 'change-request', refId: leftAlone }, { $set: { createdAt: aged() } });

      const product = start();
      try {
        const base = await product.listening;
        // the operator saves again: the crashed save is audited first, then this one, which replaced its change
        const again = await raise(base, 1);
        expect(again?.status).toBe(200);
        const latest = String(again!.body.waitingChange.id);
        expect(await edits(repeated)).toEqual([`change-request:${resource}:${crashed}`, `change-request:${resource}:${latest}`]);
        // nobody saves the other again: the sweep audits it once
        await waitFor(() => edits(leftAlone), [`change-request:${resource}:${left}`], 'the sweep to audit the save');

        // the asker cannot approve their own change; the second operator decides each once, the replaced one not at all
        expect((await api('asker', base, 'POST', `/${resource}/${repeated}/change/approve`, { id: latest }))?.status).toBe(403);
        expect((await api('approver', base, 'POST', `/${resource}/${repeated}/change/approve`, { id: crashed }))?.status).toBe(409);
        for (const [id, change] of [
          [repeated, latest],
          [leftAlone, left],
        ] as const) {
          const approved = await api('approver', base, 'POST', `/${resource}/${id}/change/approve`, { id: change });
          expect([approved?.status, approved?.body.waitingChange]).toEqual([200, null]);
          expect(await audits(`change:${resource}:${change}`)).toBe(1);
        }
        expect(await OperationModel.countDocuments({ kind: 'change-request', refType: resource, state: { $ne: 'done' } })).toBe(0);
      } finally {
        await stop(product);
      }
    },
  );
});
