import { randomUUID } from 'node:crypto';
import { Address } from '@ton/core';
import { toMicros, type LedgerReason } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { AuditEntryModel } from '../audit/audit.model';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { WalletLinkModel } from '../wallet/wallet.models';
import { balanceOf, postEntry, recoverPendingEntries } from '../ledger/ledger.service';
import { createCoin, createPlayer } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { silentLogger, testEnv } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import { ClawBackModel } from '../clawbacks/clawBack.model';
import mongoose from 'mongoose';
import { booksOfDatabase, verifyBooks } from '../../db/ledgerVerify';
import { ClusterCleanUpModel } from './clusterCleanUp.model';
import { UserModel } from './user.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

async function entry(userId: unknown, coinId: unknown, amount: string, reason: LedgerReason, refId = '') {
  const signed = amount.startsWith('-') ? -toMicros(amount.slice(1)) : toMicros(amount);
  await postEntry({
    userId: String(userId),
    coinId: String(coinId),
    amount: signed,
    reason,
    refType: refId ? 'User' : '',
    refId,
    idempotencyKey: `test:${randomUUID()}`,
  });
}

/**
 * A farm on one network: four players, three invited by two referrers outside it and one by a player inside it. Each earned
 * a mission reward (and one mining, one a gift); the referrers earned 10 GIFT for each. One player spent 70 of their 100, and
 * the first referrer 15 of their 20: what the balances cannot cover stays owed.
 */
async function world() {
  const coin = await createCoin({ symbol: 'GIFT' });
  const network = `net-${randomUUID()}`;
  const [boss1, boss2, honest] = [await createPlayer(), await createPlayer(), await createPlayer({ joinNetwork: network + '-other' })];
  const m0 = await createPlayer({ joinNetwork: network, referrer: boss1._id });
  const m1 = await createPlayer({ joinNetwork: network, referrer: boss1._id });
  const m2 = await createPlayer({ joinNetwork: network, referrer: boss2._id });
  const m3 = await createPlayer({ joinNetwork: network, referrer: m0._id });
  for (const member of [m0, m1, m2, m3]) await entry(member._id, coin._id, '100', 'mission');
  await entry(m1._id, coin._id, '20', 'mining');
  await entry(m2._id, coin._id, '5', 'gift');
  await entry(m0._id, coin._id, '3', 'refund');
  await entry(m3._id, coin._id, '-70', 'withdraw');
  await entry(boss1._id, coin._id, '10', 'referral', String(m0._id));
  await entry(boss1._id, coin._id, '10', 'referral', String(m1._id));
  await entry(boss1._id, coin._id, '-15', 'withdraw');
  await entry(boss2._id, coin._id, '10', 'referral', String(m2._id));
  await entry(m0._id, coin._id, '10', 'referral', String(m3._id));
  await entry(honest._id, coin._id, '100', 'mission');
  const operator = await createOperator(['users:write', 'gifts:write']);
  const api = consoleApi(app, operator.token);
  const cluster = { joinNetwork: network };
  const members = [m0, m1, m2, m3];
  return { coin, cluster, members, bosses: [boss1, boss2], honest, api, operator };
}
type World = Awaited<ReturnType<typeof world>>;

const REASON = { statusReason: 'A farm on one network', fa: { statusReason: 'مزرعه روی یک شبکه' } };

/** What the clean-up of the world's cluster does: four banned, 435 GIFT of theirs (70 owed), 30 GIFT from 2 referrers (15 owed). */
const EXPECTED = {
  players: 4,
  ban: 4,
  members: { players: 4, coins: [{ symbol: 'GIFT', amount: '435', now: '365', owed: '70' }] },
  referrers: { players: 2, coins: [{ symbol: 'GIFT', amount: '30', now: '15', owed: '15' }] },
};

/** After a clean-up, once: every player banned with the reason, each credit taken back by one claw-back, one audit each, balances as owed. */
async function expectCleanedUpOnce({ coin, members, bosses, honest }: World) {
  const players = await UserModel.find({ _id: { $in: members.map((m) => m._id) } }).lean();
  expect(players.map((p) => [p.status, p.statusReason, p.fa?.statusReason])).toEqual(
    Array(4).fill(['banned', REASON.statusReason, REASON.fa.statusReason]),
  );
  // 4 missions, a mining credit, a gift, 3 referral rewards to the bosses and one to a member: 10 claw-backs, each once
  const claws = await ClawBackModel.find({ user: { $in: [...members, ...bosses].map((p) => p._id) } }).lean();
  expect(claws).toHaveLength(10);
  expect(new Set(claws.map((claw) => claw.entry)).size).toBe(10);
  expect(await AuditEntryModel.countDocuments({ key: { $in: claws.map((claw) => `clawback:${String(claw._id)}`) } })).toBe(10);
  expect(await AuditEntryModel.countDocuments({ key: { $regex: ':ban$' }, record: { $in: members.map((m) => String(m._id)) } })).toBe(4);
  // what the balances covered is gone; the refund was the player's own and stays
  const balances = await Promise.all([...members, ...bosses, honest].map((p) => balanceOf(p._id, coin._id)));
  expect(balances).toEqual([toMicros('3'), 0n, 0n, 0n, 0n, 0n, toMicros('100')]);
  const taken = await LedgerEntryModel.find({ reason: 'clawback', user: { $in: [...members, ...bosses].map((p) => p._id) } }).lean();
  expect(taken.reduce((sum, e) => sum + BigInt(e.amount), 0n)).toBe(-toMicros('380'));
  for (const player of [...members, ...bosses, honest]) await expectLedgerMatchesBalances(player._id);
}

async function preview(w: World) {
  const answer = await w.api.post('/risk/clean-up/preview', { cluster: w.cluster });
  expect(answer.status).toBe(200);
  return answer.body as typeof EXPECTED & { key: string };
}

const confirm = (w: World, key: string) => w.api.post('/risk/clean-up', { cluster: w.cluster, key, ...REASON });

describe("a risk cluster's clean-up", () => {
  afterEach(() => onFault(null));

  it('bans every player and takes back what they and their referrers earned from them, as the preview said; a second confirmation does nothing more', async () => {
    const w = await world();
    const said = await preview(w);
    expect(said).toMatchObject(EXPECTED);
    // the preview changes nothing
    expect(await UserModel.countDocuments({ _id: { $in: w.members.map((m) => m._id) }, status: 'banned' })).toBe(0);
    expect(await ClawBackModel.countDocuments({ user: { $in: w.members.map((m) => m._id) } })).toBe(0);

    const done = await confirm(w, said.key);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ...said, status: 'done' });
    await expectCleanedUpOnce(w);
    // what the balances did not cover is owed, and blocks withdrawals until it is taken
    const owed = await ClawBackModel.find({ status: 'owed', user: { $in: [...w.members, ...w.bosses].map((p) => p._id) } }).lean();
    expect(owed.map((claw) => [String(claw.user), claw.amount - claw.taken]).sort()).toEqual(
      [
        [String(w.members[3]!._id), Number(toMicros('70'))],
        [String(w.bosses[0]!._id), Number(toMicros('5'))],
        [String(w.bosses[0]!._id), Number(toMicros('10'))],
      ].sort(),
    );

    const again = await confirm(w, said.key);
    expect(again.body).toEqual(done.body);
    await expectCleanedUpOnce(w);
    // what `npm run ledger:verify` checks: every operation balances and every balance is the sum of its lines
    expect(verifyBooks(await booksOfDatabase(mongoose.connection)).problems).toEqual([]);
    // the cluster as it is now has nothing left to take back and nobody left to ban
    expect(await preview(w)).toMatchObject({ ban: 0, members: { players: 0, coins: [] }, referrers: { players: 0, coins: [] } });
  });

  /**
   * Where a clean-up can die: the engine's points of its own operation (`cluster-cleanup`: recorded, then after each step),
   * of a claw-back's opening and of a take, and a ban between the ledger's hold and the player's status. Each `[point, kind, step]`.
   */
  const KILLS: Array<[string, string?, string?]> = [
    ['ledger:after-record', 'cluster-cleanup'],
    ['ledger:after-step', 'cluster-cleanup', 'plan'],
    ['ledger:after-step', 'cluster-cleanup', 'audit'],
    ['ledger:after-step', 'player-status', 'hold'],
    ['ledger:after-step', 'cluster-cleanup', 'bans'],
    ['ledger:after-record', 'clawback-open'],
    ['ledger:after-step', 'clawback-open', 'audit'],
    ['ledger:after-record', 'clawback-take'],
    ['ledger:after-apply', 'clawback-take'],
    ['ledger:after-step', 'clawback-take'],
    ['ledger:after-step', 'cluster-cleanup', 'takes'],
  ];
  const finishers = {
    // the operator confirms again (the same code a second operator's confirmation runs)
    retry: (w: World, key: string) => confirm(w, key),
    // nobody confirms again: the engine's sweep alone
    sweep: () => recoverPendingEntries(0),
  };

  it.each(KILLS.flatMap((kill) => (['retry', 'sweep'] as const).map((by) => [kill.filter(Boolean).join(':'), by, kill] as const)))(
    'killed at %s, finished by the %s: each take-back once and every ban done',
    async (_name, by, [point, kind, step]) => {
      const w = await world();
      const { key } = await preview(w);
      let hits = 0;
      onFault((at, atKind, atStep) => {
        if (at === point && (!kind || atKind === kind) && (!step || atStep === step) && hits++ === 0) throw new Error(`killed at ${at}`);
      });
      expect((await confirm(w, key)).status).toBe(500);
      expect(hits).toBeGreaterThan(0);
      onFault(null);
      await finishers[by](w, key);
      await expectCleanedUpOnce(w);
      expect(await ClusterCleanUpModel.findOne({ key }).lean()).toMatchObject({ status: 'done' });
      // a confirmation afterwards answers what was done, and does nothing more
      const retried = await confirm(w, key);
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ ...EXPECTED, status: 'done' });
      await expectCleanedUpOnce(w);
      expect(await ClusterCleanUpModel.countDocuments({ key })).toBe(1);
    },
  );

  it('20 operators confirming at once, and two sweeps carrying it out beside them, take back once', async () => {
    const w = await world();
    const { key } = await preview(w);
    const others = await Promise.all(Array.from({ length: 19 }, () => createOperator(['users:write', 'gifts:write'])));
    const apis = [w.api, ...others.map((other) => consoleApi(app, other.token))];
    // once the plan is written, two passes of the engine's sweep (another instance's, say) run it too, at the same time
    const sweeps: Promise<number>[] = [];
    onFault((at, kind, step) => {
      if (at === 'ledger:after-step' && kind === 'cluster-cleanup' && step === 'plan' && !sweeps.length)
        sweeps.push(recoverPendingEntries(0), recoverPendingEntries(0));
    });
    const answers = await Promise.all(apis.map((api) => api.post('/risk/clean-up', { cluster: w.cluster, key, ...REASON })));
    await Promise.all(sweeps);
    expect(sweeps).toHaveLength(2);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    for (const answer of answers) expect(answer.body).toMatchObject({ ...EXPECTED, status: 'done' });
    await expectCleanedUpOnce(w);
    expect(await ClusterCleanUpModel.countDocuments({ key })).toBe(1);
  });

  it('refuses an operator without users:write or gifts:write, a cluster changed since the preview, and a missing reason, changing nothing', async () => {
    const w = await world();
    const { key } = await preview(w);
    for (const permissions of [['users:write'], ['gifts:write'], ['users:read', 'gifts:read']]) {
      const api = consoleApi(app, (await createOperator(permissions)).token);
      expect((await api.post('/risk/clean-up/preview', { cluster: w.cluster })).status).toBe(403);
      expect((await api.post('/risk/clean-up', { cluster: w.cluster, key, ...REASON })).status).toBe(403);
    }
    expect((await w.api.post('/risk/clean-up', { cluster: w.cluster, key })).body.errors).toEqual({
      statusReason: 'Say why: the player reads this reason',
    });
    expect((await w.api.post('/risk/clean-up/preview', { cluster: {} })).body.errors).toEqual({ cluster: 'Choose a cluster' });
    // a player joins the cluster after the preview: the operator must look again
    await createPlayer({ joinNetwork: w.cluster.joinNetwork });
    expect((await confirm(w, key)).body.errors).toEqual({ key: 'The cluster changed since the preview: look at it again' });
    expect(await UserModel.countDocuments({ joinNetwork: w.cluster.joinNetwork, status: 'banned' })).toBe(0);
    expect(await ClawBackModel.countDocuments({ user: { $in: [...w.members, ...w.bosses].map((p) => p._id) } })).toBe(0);
    expect(await ClusterCleanUpModel.countDocuments({ key })).toBe(0);
  });
});

describe("the Risk tab's wallets", () => {
  it('are answered in the form wallets show them, for the network each was linked on, beside the raw form', async () => {
    const [mainnet, testnet] = [Address.parseRaw(`0:${'1'.repeat(64)}`), Address.parseRaw(`0:${'2'.repeat(64)}`)];
    const player = await createPlayer({ walletAddresses: [mainnet.toRawString(), testnet.toRawString()] });
    await WalletLinkModel.create({ address: mainnet.toRawString(), user: player._id, network: '-239' });
    await WalletLinkModel.create({ address: testnet.toRawString(), user: player._id, network: '-3' });
    const reader = consoleApi(app, (await createOperator(['users:read'])).token);
    const answer = await reader.get(`/risk/${String(player._id)}/wallets`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      wallets: [
        { raw: mainnet.toRawString(), address: mainnet.toString({ bounceable: false }) },
        { raw: testnet.toRawString(), address: testnet.toString({ bounceable: false, testOnly: true }) },
      ],
    });
    expect(answer.body.wallets[0].address).toMatch(/^UQ/);
    expect((await consoleApi(app, (await createOperator(['gifts:read'])).token).get(`/risk/${String(player._id)}/wallets`)).status).toBe(
      403,
    );
  });
});
