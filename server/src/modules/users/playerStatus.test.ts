import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { CategoryModel } from '../content/content.models';
import { LedgerEntryModel, LedgerHoldModel } from '../ledger/ledger.models';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { OperationModel } from '../ledger/operation.model';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { WalletLinkModel } from '../wallet/wallet.models';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { silentLogger, testEnv } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import { setPlayerStatus } from './playerStatus.service';
import { appRouter } from '../../trpc/root';
import { UserModel } from './user.model';

const FREEZE = {
  status: 'frozen' as const,
  statusReason: 'Fifty friends joined in one minute',
  fa: { statusReason: 'پنجاه دوست در یک دقیقه' },
};

async function missionsOf(count: number) {
  const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Race' }), createCoin()]);
  const missions = await MissionModel.insertMany(
    Array.from({ length: count }, (_, i) => ({
      category: category._id,
      coin: coin._id,
      title: `Mission ${i}`,
      link: 'https://example.com',
      reward: Number(toMicros('1')),
      verifyType: 'auto',
      order: i,
    })),
  );
  return { coin, missions };
}

/** A player signed in again after a change: every request reads the player afresh. */
async function callerOf(playerId: unknown) {
  return playerCaller(await UserModel.findById(playerId));
}

describe('a frozen player', () => {
  it('may look but not claim, mine, stake, move a wallet or withdraw, and is told why in their language', async () => {
    const { coin, missions } = await missionsOf(1);
    const player = await createPlayer({ language: 'fa' });
    await fund(player._id, coin._id, '50');
    await setPlayerStatus(player._id, FREEZE, new Date());
    const caller = await callerOf(player._id);

    const frozen = { cause: { code: 'ACCOUNT_FROZEN', params: { reason: 'پنجاه دوست در یک دقیقه' } } };
    const missionId = String(missions[0]!._id);
    const moves = {
      claim: () => caller.missions.claim({ missionId }),
      miningStart: () => caller.mining.start(),
      miningMove: () => caller.mining.move(),
      stake: () => caller.staking.stake({ stakingCoinId: String(coin._id), amount: '10', duration: 'week', idempotencyKey: randomUUID() }),
      unstake: () => caller.staking.claim({ stakeId: String(coin._id) }),
      withdraw: () => caller.withdrawals.request({ coinId: String(coin._id), amount: '10', idempotencyKey: randomUUID() }),
      unlink: () => caller.wallet.unlink({ address: `0:${'a'.repeat(64)}` }),
    };
    for (const [name, move] of Object.entries(moves))
      expect([
        name,
        await move().then(
          () => 'done',
          (error: unknown) => error,
        ),
      ]).toMatchObject([name, frozen]);

    // looking is allowed, and the app learns the status and the reason
    expect(await caller.user.me()).toMatchObject({ status: 'frozen', statusReason: 'پنجاه دوست در یک دقیقه' });
    await expect(caller.home.get()).resolves.toBeDefined();
    await expect(caller.withdrawals.history({ page: 1, pageSize: 10 })).resolves.toBeDefined();
    // nothing moved
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('50'));
    expect(await UserMissionModel.countDocuments({ user: player._id })).toBe(0);
    expect(await WithdrawalModel.countDocuments({ user: player._id })).toBe(0);
  });

  it('is refused everything once banned, and plays again once active', async () => {
    const player = await createPlayer();
    await setPlayerStatus(player._id, { status: 'banned', statusReason: 'Several accounts' }, new Date());
    const banned = await callerOf(player._id);
    const refusal = { cause: { code: 'ACCOUNT_BANNED', params: { reason: 'Several accounts' } } };
    await expect(banned.user.me()).rejects.toMatchObject(refusal);
    await expect(banned.home.get()).rejects.toMatchObject(refusal);
    await expect(banned.mining.status()).rejects.toMatchObject(refusal);

    await setPlayerStatus(player._id, { status: 'active' }, new Date());
    expect(await (await callerOf(player._id)).user.me()).toMatchObject({ status: 'active', statusReason: '' });
    expect(await LedgerHoldModel.countDocuments({ _id: player._id })).toBe(0);
  });
});

describe('every player procedure', () => {
  // what a frozen player may still do: look, change their settings, sign out, allow messages, tap Go, ask for a wallet proof
  // payload, share their invite (the link is on the page anyway; a friend's reward waits while the referrer is frozen)
  const FROZEN_MAY = new Set([
    'user.updateSettings',
    // a setting too: which kinds of the bot's reminders reach them (none does while they are frozen)
    'user.switchReminder',
    'user.allowMessages',
    'auth.signOutEverywhere',
    'missions.go',
    'wallet.proofPayload',
    'referrals.prepareShare',
    // the first open of a mission's page (its funnel): no money moves
    'missions.open',
    // a frozen player appeals against the freeze
    'help.sendAppeal',
    'support.appeal',
  ]);
  /** What a banned player may still do: read the Help page and appeal against the ban. */
  const BANNED_MAY = new Set(['help.get', 'help.appeal', 'help.sendAppeal', 'support.appeal']);
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
    // open to anyone: the health check and signing in
    .filter(([path]) => path !== 'health' && !['auth.signInSettings', 'auth.requestLoginCode', 'auth.verifyLoginCode'].includes(path));

  async function call(caller: ReturnType<typeof playerCaller>, path: string): Promise<unknown> {
    const procedure = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
      input?: unknown,
    ) => Promise<unknown>;
    return procedure({}).then(
      () => null,
      (error: { cause?: { code?: string } }) => error.cause?.code ?? null,
    );
  }

  it('refuses a banned player every one of them, with the reason', async () => {
    const player = await createPlayer();
    await setPlayerStatus(player._id, { status: 'banned', statusReason: 'Several accounts' }, new Date());
    const caller = await callerOf(player._id);
    const answers = await Promise.all(procedures.map(async ([path]) => [path, await call(caller, path)]));
    expect(answers.filter(([path, code]) => !BANNED_MAY.has(path as string) && code !== 'ACCOUNT_BANNED')).toEqual([]);
    expect(answers.filter(([path, code]) => BANNED_MAY.has(path as string) && code === 'ACCOUNT_BANNED')).toEqual([]);
  });

  it('refuses a frozen player every mutation that moves money, and nothing else: a new procedure must say which it is', async () => {
    const player = await createPlayer();
    await setPlayerStatus(player._id, FREEZE, new Date());
    const caller = await callerOf(player._id);
    const mutations = procedures.filter(([, procedure]) => procedure._def.type === 'mutation').map(([path]) => path);
    const answers = await Promise.all(mutations.map(async (path) => [path, await call(caller, path)] as const));
    expect(answers.filter(([path, code]) => !FROZEN_MAY.has(path) && code !== 'ACCOUNT_FROZEN')).toEqual([]);
    expect(answers.filter(([path, code]) => FROZEN_MAY.has(path) && code === 'ACCOUNT_FROZEN')).toEqual([]);
    expect(
      answers
        .filter(([, code]) => code === 'ACCOUNT_FROZEN')
        .map(([path]) => path)
        .sort(),
    ).toEqual([
      'mining.move',
      'mining.start',
      'missions.claim',
      // a Stars purchase: a frozen player is refused the invoice (and the pre-checkout query)
      'shop.invoice',
      'staking.claim',
      'staking.stake',
      'wallet.link',
      'wallet.unlink',
      'withdrawals.request',
    ]);
  });
});

describe('a freeze racing claims', () => {
  afterEach(() => onFault(null));

  it('leaves no credit after the freeze: 100 claims already past the door are credited before it answers, or held', async () => {
    const { coin, missions } = await missionsOf(100);
    const player = await createPlayer();
    // each claim carries the player as read before the freeze: the worst case, every one already past the door
    const caller = playerCaller(player);
    let recorded = 0;
    const freeze: { done?: Promise<unknown> } = {};
    let frozenAt = new Date(0);
    onFault((point) => {
      // the freeze starts while claims are between recording their entries and applying them
      if (point === 'ledger:after-record' && ++recorded === 20)
        freeze.done = setPlayerStatus(player._id, FREEZE, new Date()).then(() => (frozenAt = new Date()));
    });
    const outcomes = await Promise.allSettled(missions.map((mission) => caller.missions.claim({ missionId: String(mission._id) })));
    await freeze.done;
    onFault(null);

    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason as { cause?: { code?: string } });
    expect(new Set(refused.map((reason) => reason.cause?.code))).toEqual(new Set(['ACCOUNT_FROZEN']));
    const credits = await LedgerEntryModel.find({ user: player._id, reason: 'mission', state: 'posted' }).lean();
    expect(credits.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    // no credit was posted after the freeze answered
    expect(credits.filter((entry) => entry.postedAt! > frozenAt)).toEqual([]);
    // a claim refused at the ledger keeps its mission done with the credit owed, by its operation: nothing is lost
    const done = await UserMissionModel.countDocuments({ user: player._id, status: 'done' });
    const owed = await OperationModel.countDocuments({ user: player._id, kind: 'mission-credit', state: 'recorded', held: true });
    expect(credits.length + owed).toBe(done);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros(String(credits.length)));

    // once active again, the sweep pays what was owed, once
    await setPlayerStatus(player._id, { status: 'active' }, new Date());
    expect(await recoverPendingEntries(0)).toBe(owed);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros(String(done)));
    await expectLedgerMatchesBalances(player._id);
  });

  it('is finished by the sweep when a crash stops it between the ledger and the player (its operation, after the hold step)', async () => {
    const { missions } = await missionsOf(1);
    const player = await createPlayer();
    const crashAfterTheHold = () =>
      onFault((point, kind, step) => {
        if (point === 'ledger:after-step' && kind === 'player-status' && step === 'hold') throw new Error('killed');
      });
    crashAfterTheHold();
    await expect(setPlayerStatus(player._id, FREEZE, new Date())).rejects.toThrow('killed');
    onFault(null);
    // the ledger holds the player's money at once; their status is not written yet
    expect(await LedgerHoldModel.findById(player._id).lean()).toMatchObject({ code: 'ACCOUNT_FROZEN', reason: FREEZE.statusReason });
    expect(await UserModel.findById(player._id).lean()).toMatchObject({ status: 'active' });
    // a claim that passes the door is held at the ledger
    await expect(playerCaller(player).missions.claim({ missionId: String(missions[0]!._id) })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_FROZEN' },
    });

    // the engine's sweep alone finishes it: one operation, no postings, each step once
    await recoverPendingEntries(0);
    expect(await UserModel.findById(player._id).lean()).toMatchObject({ status: 'frozen', statusReason: FREEZE.statusReason });
    expect(await LedgerHoldModel.findById(player._id).lean()).toMatchObject({ code: 'ACCOUNT_FROZEN', reason: FREEZE.statusReason });
    expect(await OperationModel.find({ kind: 'player-status', refId: String(player._id) }).lean()).toEqual([
      expect.objectContaining({ state: 'done', postings: [], steps: ['hold', 'player'] }),
    ]);

    // lifting it crashes the same way: released at the ledger, the sweep writes the status
    crashAfterTheHold();
    await expect(setPlayerStatus(player._id, { status: 'active' }, new Date())).rejects.toThrow('killed');
    onFault(null);
    expect(await LedgerHoldModel.countDocuments({ _id: player._id })).toBe(0);
    await recoverPendingEntries(0);
    expect(await UserModel.findById(player._id).lean()).toMatchObject({ status: 'active', statusReason: '' });
    expect(await LedgerHoldModel.countDocuments({ _id: player._id })).toBe(0);
    expect(await OperationModel.countDocuments({ kind: 'player-status', refId: String(player._id), state: 'done' })).toBe(2);
  });

  it('a change a crash held back does not undo a newer one: the sweep finishing it leaves the status and hold as the newer says', async () => {
    const player = await createPlayer();
    // the freeze is killed once recorded, before it wrote anything; the operator then sets the player active
    onFault((point, kind) => {
      if (point === 'ledger:after-record' && kind === 'player-status') throw new Error('killed');
    });
    await expect(setPlayerStatus(player._id, FREEZE, new Date(Date.now() - 1000))).rejects.toThrow('killed');
    onFault(null);
    await setPlayerStatus(player._id, { status: 'active' }, new Date());
    await recoverPendingEntries(0);
    expect(await OperationModel.countDocuments({ kind: 'player-status', refId: String(player._id), state: 'done' })).toBe(2);
    expect(await UserModel.findById(player._id).lean()).toMatchObject({ status: 'active', statusReason: '' });
    expect(await LedgerHoldModel.countDocuments({ _id: player._id })).toBe(0);
    // a freeze and a lift at once: the hold ends as the status the player is left with says
    await Promise.all([setPlayerStatus(player._id, FREEZE, new Date()), setPlayerStatus(player._id, { status: 'active' }, new Date())]);
    const after = (await UserModel.findById(player._id).lean())!;
    expect(await LedgerHoldModel.countDocuments({ _id: player._id })).toBe(after.status === 'frozen' ? 1 : 0);
    // a player who is not there: refused, nothing left behind
    await expect(setPlayerStatus(new Types.ObjectId(), FREEZE, new Date())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await OperationModel.countDocuments({ kind: 'player-status', state: { $ne: 'done' } })).toBe(0);
  });
});

describe('status in the console', () => {
  const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

  it('sets a status with PUT /api/admin/users/:id, freezes many at once, audits each, and holds approved withdrawals', async () => {
    const api = consoleApi(app, (await createOperator(['users:write', 'withdraws:write', 'audit:read'])).token);
    const players = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
    const [one, ...rest] = players;

    const put = await api.put(`/users/${String(one._id)}`, { status: 'frozen', statusReason: 'Shared wallet' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ status: 'frozen', statusReason: 'Shared wallet', risk: { score: 0, level: 'low', signals: [] } });

    const bulk = await api.post('/users/status', {
      ids: rest.map((p) => String(p._id)),
      status: 'banned',
      statusReason: 'Farm',
      fa: { statusReason: 'مزرعه' },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.changed).toHaveLength(2);
    const listed = await api.get('/users', { filter: { status: 'banned', id: players.map((p) => String(p._id)) } });
    expect(listed.body.map((u: { id: string }) => u.id).sort()).toEqual(rest.map((p) => String(p._id)).sort());
    const audit = await api.get('/audit', { filter: { resource: 'users' } });
    expect(audit.body.filter((row: { record: string }) => rest.some((p) => String(p._id) === row.record))).toHaveLength(2);
    expect((await api.post('/users/status', { ids: [String(one._id)], status: 'banned' })).body.errors).toEqual({
      statusReason: 'Say why: the player reads this reason',
    });

    // a frozen player's withdrawal is not queued for the hot wallet; rejecting it gives the amount back
    const coin = await createCoin();
    await fund(one._id, coin._id, '5');
    await WalletLinkModel.create({ address: `0:${'b'.repeat(64)}`, user: one._id, network: '-239' });
    const withdrawal = await WithdrawalModel.create({
      user: one._id,
      coin: coin._id,
      amount: Number(toMicros('2')),
      address: `0:${'b'.repeat(64)}`,
      status: 'pending',
      idempotencyKey: `${String(one._id)}:w1`,
    });
    const approve = await api.put(`/withdraws/${String(withdrawal._id)}`, { status: 'approved' });
    expect(approve.status).toBe(403);
    expect(approve.body.message).toBe('The player is frozen (Shared wallet): their withdrawals wait. Reject it to give the amount back');
    expect((await WithdrawalModel.findById(withdrawal._id).lean())!.status).toBe('pending');
  });
});
