import mongoose from 'mongoose';
import { fromMicros, toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { startBotApiStandIn } from '../../../test/botApiStandIn';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { CategoryModel } from '../content/content.models';
import { balanceOf } from '../ledger/ledger.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { AuditEntryModel } from './audit.model';
import { recordAudit } from './audit.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

async function pendingReviews(count: number) {
  const coin = await createCoin();
  const category = await CategoryModel.create({ title: 'Review work' });
  const mission = await MissionModel.create({
    category: category._id,
    coin: coin._id,
    title: 'Post a screenshot',
    reward: Number(toMicros('5')),
    verifyType: 'manual',
  });
  const players = await Promise.all(Array.from({ length: count }, () => createPlayer()));
  const reviews = await UserMissionModel.insertMany(
    players.map((player) => ({
      user: player._id,
      mission: mission._id,
      category: category._id,
      coin: coin._id,
      reward: Number(toMicros('5')),
      status: 'pending' as const,
      claimedAt: new Date(),
    })),
  );
  return { coin, mission, players, ids: reviews.map((r) => String(r._id)) };
}

describe('the audit of operator writes', () => {
  it('records who created, changed and deleted a record, with only the changed fields before and after', async () => {
    const operator = await createOperator(['*']);
    const api = consoleApi(app, operator.token);
    const created = await api.post('/categories', { title: 'Weekly', order: 1 }).expect(201);
    await api.put(`/categories/${created.body.id}`, { ...created.body, title: 'Weekly quests' }).expect(200);
    await api.delete(`/categories/${created.body.id}`).expect(200);

    const history = await api
      .get('/audit', { filter: { resource: 'categories', record: created.body.id }, sort: ['createdAt', 'ASC'] })
      .expect(200);
    expect(history.body.map((e: { action: string }) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(
      history.body.every(
        (e: { username: string; account: string }) => e.username === operator.account.username && e.account === operator.id,
      ),
    ).toBe(true);
    expect(history.body[0]).toMatchObject({ before: null, after: { title: 'Weekly', order: 1 } });
    expect(history.body[1]).toMatchObject({ before: { title: 'Weekly' }, after: { title: 'Weekly quests' } });
    expect(Object.keys(history.body[1].after)).toEqual(['title']);
    expect(history.body[2]).toMatchObject({ before: { title: 'Weekly quests' }, after: null });
  });

  it('never records a password or a bot token', async () => {
    // a token is saved once Telegram (here its stand-in) says whose it is
    const token = `123456:${'A'.repeat(35)}`;
    const standIn = await startBotApiStandIn(token);
    const withTelegram = createApp({
      env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }),
      logger: silentLogger,
      clientDist: '/nonexistent',
      adminDist: '/nonexistent',
    });
    const api = consoleApi(withTelegram, (await createOperator(['*'])).token);
    await api
      .post('/accounts', { username: `audited_${Date.now()}`, password: 'a secret password', permissions: ['users:read'] })
      .expect(201);
    await api.put('/app-config/current', { botToken: token }).expect(200);
    const trail = JSON.stringify((await api.get('/audit', { range: [0, 99] })).body);
    expect(trail).not.toContain('a secret password');
    expect(trail).not.toContain('A'.repeat(35));
    expect(trail).toContain('"botTokenSet":true');
    await standIn.close();
  });

  it('traces a gift back to the operator: the ledger entry and the audit entry both name them', async () => {
    const operator = await createOperator(['users:write', 'gifts:write']);
    const api = consoleApi(app, operator.token);
    const player = await createPlayer();
    const coin = await createCoin({ symbol: 'GIFT' });
    const body = { coin: String(coin._id), amount: '10', direction: 'credit', note: 'Contest winner', idempotencyKey: 'gift-form-0001' };
    await api.post(`/users/${player._id}/adjustments`, body).expect(201);
    await api.post(`/users/${player._id}/adjustments`, body).expect(200);
    expect(fromMicros(await balanceOf(player._id, coin._id))).toBe('10');

    const ledger = await api.get('/ledger-entries', { filter: { user: String(player._id) } }).expect(200);
    expect(ledger.body).toEqual([
      expect.objectContaining({
        amount: '10',
        reason: 'gift',
        note: 'Contest winner',
        createdBy: operator.id,
        operator: operator.account.username,
      }),
    ]);
    const audit = await AuditEntryModel.find({ resource: 'users', record: String(player._id) }).lean();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'adjust',
      username: operator.account.username,
      note: 'Contest winner',
      after: { amount: '+10', symbol: 'GIFT', balance: '10' },
    });
  });

  it('is read-only, and only for accounts allowed to read it', async () => {
    const api = consoleApi(app, (await createOperator(['*'])).token);
    const [entry] = (await api.get('/audit')).body;
    expect((await api.post('/audit', {})).status).toBe(403);
    expect((await api.put(`/audit/${entry.id}`, {})).status).toBe(403);
    expect((await api.delete(`/audit/${entry.id}`)).status).toBe(403);
    expect((await consoleApi(app, (await createOperator(['users:write'])).token).get('/audit')).status).toBe(403);
    expect((await consoleApi(app, (await createOperator(['audit:read'])).token).get('/audit')).status).toBe(200);
  });
});

/** The collections the product's queries read while `run` runs (mongoose's debug hook), one name per query. */
async function collectionsRead(run: () => Promise<unknown>): Promise<string[]> {
  const read: string[] = [];
  mongoose.set('debug', (collection: string, method: string) => void (method === 'find' && read.push(collection)));
  await run().finally(() => mongoose.set('debug', false));
  return read;
}

describe('the audit log as an operator reads it', () => {
  it('names the operators and players an entry mentions, in one query per collection for the whole page', async () => {
    const [approver, writer] = await Promise.all([createOperator(['*']), createOperator(['*'])]);
    const players = await Promise.all([createPlayer({ name: 'Sara' }), createPlayer({ name: 'Reza', username: '' })]);
    const operator = { id: writer.id, username: writer.account.username };
    const withdrawal = String(new mongoose.Types.ObjectId());
    await recordAudit({
      operator,
      action: 'review',
      resource: 'withdraws',
      record: withdrawal,
      before: { status: 'pending', approvedBy: null, user: String(players[0]._id) },
      after: { status: 'approved', approvedBy: approver.id, user: String(players[0]._id) },
    });
    const banned = { action: 'update', resource: 'users', before: { status: 'active' }, after: { status: 'banned' } } as const;
    for (const player of players) await recordAudit({ ...banned, operator, record: String(player._id) });
    const api = consoleApi(app, writer.token);
    let page: Array<{ record: string; names: Record<string, string> }> = [];
    const read = await collectionsRead(async () => {
      page = (await api.get('/audit', { filter: { account: writer.id }, range: [0, 9] }).expect(200)).body;
    });
    const [sara, reza] = players.map((p) => String(p._id));
    expect(page.map((entry) => [entry.record, entry.names])).toEqual([
      [reza, { [reza!]: 'Reza' }],
      [sara, { [sara!]: `Sara (@${players[0].username})` }],
      // the player did not change, so the write does not mention them; the operator who approved it is named
      [withdrawal, { [approver.id]: approver.account.username }],
    ]);
    // the page read each collection it names once, whatever its length: no query per entry
    expect(read.filter((c) => c === 'users')).toHaveLength(1);
    expect(read.filter((c) => c === 'accounts').length).toBeLessThanOrEqual(2); // the signed-in operator, and the names
  });

  it("filters by operator and by a period of time, and refuses a filter it doesn't know", async () => {
    const [first, second] = await Promise.all([createOperator(['*']), createOperator(['*'])]);
    const write = (operator: typeof first, at: string) =>
      AuditEntryModel.create({
        account: operator.id,
        username: operator.account.username,
        action: 'update',
        resource: 'categories',
        record: String(new mongoose.Types.ObjectId()),
        createdAt: new Date(at),
      });
    await write(first, '2026-03-01T10:00:00Z');
    await write(first, '2026-03-05T10:00:00Z');
    await write(second, '2026-03-05T11:00:00Z');
    const api = consoleApi(app, first.token);
    const when = (rows: Array<{ createdAt: string }>) => rows.map((r) => r.createdAt);
    const byFirst = await api.get('/audit', { filter: { account: first.id }, sort: ['createdAt', 'ASC'] }).expect(200);
    expect(when(byFirst.body)).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-05T10:00:00.000Z']);
    const inMarch = { createdAt_gte: '2026-03-04T00:00:00Z', createdAt_lte: '2026-03-06T00:00:00Z' };
    const period = await api.get('/audit', { filter: inMarch, sort: ['createdAt', 'ASC'] }).expect(200);
    expect(period.body.map((r: { username: string }) => r.username)).toEqual([first.account.username, second.account.username]);
    const both = await api.get('/audit', { filter: { ...inMarch, account: second.id } }).expect(200);
    expect(both.headers['content-range']).toBe('audit 0-0/1');
    await api.get('/audit', { filter: { operator: first.id } }).expect(400);
    await api.get('/audit', { filter: { account: 'not-an-id' } }).expect(400);
  });

  it('answers an export of a thousand entries in one page', async () => {
    const operator = await createOperator(['*']);
    const fields = { account: operator.id, username: operator.account.username, action: 'update', resource: 'covers' };
    await AuditEntryModel.insertMany(Array.from({ length: 1000 }, (_, i) => ({ ...fields, record: `r${i}` })));
    const res = await consoleApi(app, operator.token)
      .get('/audit', { filter: { account: operator.id }, range: [0, 999] })
      .expect(200);
    expect(res.body).toHaveLength(1000);
    expect(res.headers['content-range']).toBe('audit 0-999/1000');
  });
});

describe('bulk review of Manual missions', () => {
  it('approves several through the single review, credits each once and records each', async () => {
    const operator = await createOperator(['user-missions:write']);
    const api = consoleApi(app, operator.token);
    const { coin, players, ids } = await pendingReviews(3);
    const [first, second] = ids;
    const res = await api.post('/user-missions/bulk-review', { ids: [first, second, first], status: 'done' }).expect(200);
    expect(res.body).toEqual({ reviewed: [first, second], refused: {} });
    expect(fromMicros(await balanceOf(players[0]!._id, coin._id))).toBe('5');
    expect(fromMicros(await balanceOf(players[1]!._id, coin._id))).toBe('5');
    expect(await balanceOf(players[2]!._id, coin._id)).toBe(0n);
    expect(await LedgerEntryModel.countDocuments({ refId: { $in: [first!, second!] }, createdBy: operator.account._id })).toBe(2);
    expect(
      await AuditEntryModel.countDocuments({ action: 'review', record: { $in: [first!, second!] }, 'after.status': 'done' } as never),
    ).toBe(2);

    const again = await api.post('/user-missions/bulk-review', { ids: [first, ids[2]], status: 'done' }).expect(200);
    expect(again.body.reviewed).toEqual([ids[2]]);
    expect(again.body.refused[first!]).toBe('Only a pending mission can be approved or rejected; this one is done');
    expect(fromMicros(await balanceOf(players[0]!._id, coin._id))).toBe('5');
  });

  it('audits an approval from its own page as a review too, as the bulk review does', async () => {
    const api = consoleApi(app, (await createOperator(['user-missions:write'])).token);
    const { ids } = await pendingReviews(1);
    await api.put(`/user-missions/${ids[0]}`, { status: 'done' }).expect(200);
    expect(await AuditEntryModel.find({ record: ids[0] }, { action: 1, _id: 0 }).lean()).toEqual([{ action: 'review' }]);
  });

  it('rejects only with a reason, which the players are shown', async () => {
    const api = consoleApi(app, (await createOperator(['user-missions:write'])).token);
    const { ids } = await pendingReviews(2);
    const missing = await api.post('/user-missions/bulk-review', { ids, status: 'rejected', rejectReason: ' ' }).expect(400);
    expect(missing.body.errors).toEqual({ rejectReason: 'This field is required' });
    await api.post('/user-missions/bulk-review', { ids, status: 'rejected', rejectReason: 'The screenshot is blurred' }).expect(200);
    const rows = await UserMissionModel.find({ _id: { $in: ids } }).lean();
    expect(rows.map((r) => [r.status, r.rejectReason])).toEqual([
      ['rejected', 'The screenshot is blurred'],
      ['rejected', 'The screenshot is blurred'],
    ]);
  });

  it('refuses a reader and bad ids', async () => {
    const { ids } = await pendingReviews(1);
    await consoleApi(app, (await createOperator(['user-missions:read'])).token)
      .post('/user-missions/bulk-review', { ids, status: 'done' })
      .expect(403);
    const bad = await consoleApi(app, (await createOperator(['*'])).token)
      .post('/user-missions/bulk-review', { ids: ['nope'], status: 'done' })
      .expect(400);
    expect(Object.keys(bad.body.errors)).toEqual(['ids.0']);
    expect((await UserMissionModel.findById(ids[0]).lean())!.status).toBe('pending');
  });

  it('finds reviews by the player or the mission', async () => {
    const api = consoleApi(app, (await createOperator(['user-missions:read'])).token);
    const { players, ids } = await pendingReviews(2);
    const byPlayer = await api.get('/user-missions', { filter: { q: players[1]!.username } }).expect(200);
    expect(byPlayer.body.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    const byMission = await api
      .get('/user-missions', { filter: { q: 'post a SCREENSHOT', status: 'pending' }, range: [0, 99] })
      .expect(200);
    expect(byMission.body.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(ids));
    expect((await api.get('/user-missions', { filter: { q: 'nobody-has-this-name' } })).body).toEqual([]);
  });
});
