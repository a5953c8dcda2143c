import jwt from 'jsonwebtoken';
import { Types } from 'mongoose';
import request from 'supertest';
import { ADMIN_RESOURCES, hasPermission, type AdminResource } from '@gift/shared';
import { createApp } from '../app';
import type { AnyModel } from '../http/resource';
import { silentLogger, testEnv } from '../../test/helpers';
import { createCoin, createPlayer } from '../../test/factories';
import { consoleApi, createOperator } from '../../test/operators';
import { AccountModel } from '../modules/accounts/account.model';
import { GiftCoinModel } from '../modules/coins/giftCoin.model';
import { CategoryModel, CoverModel, PartnerModel } from '../modules/content/content.models';
import { MissionModel } from '../modules/missions/mission.models';
import { StakingCoinModel } from '../modules/staking/staking.models';
import { UserModel } from '../modules/users/user.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const list = (resource: string, token: string) => request(app).get(`/api/admin/${resource}`).set('Authorization', `Bearer ${token}`);
const someId = () => String(new Types.ObjectId());
/** Resources other helpers fill in: only access and listing are asserted here. */
const reviewedElsewhere = new Set<AdminResource>(['user-missions', 'withdraws', 'gifts']);
/** Written only as a side effect of other writes, or through an action of their own (a Stars purchase's refund). */
const readOnly = new Set<AdminResource>(['audit', 'star-purchases', 'leagues']);
/**
 * A permission that guards lists of other names: `leagues` guards the standings (checked here, written only by the leagues
 * job) and the week's prizes (`league-weeks`, tested with the leagues).
 */
const PATH_OF: Partial<Record<AdminResource, string>> = { leagues: 'league-standings' };

describe('console access, for every resource', () => {
  let disabledToken: string;
  let deletedToken: string;
  beforeAll(async () => {
    disabledToken = (await createOperator(['*'], { enabled: false })).token;
    const deleted = await createOperator(['*']);
    await AccountModel.deleteOne({ _id: deleted.account._id });
    deletedToken = deleted.token;
  });

  describe.each(ADMIN_RESOURCES.map((permission) => [permission]))('%s', (permission) => {
    // a resource whose permission does not imply reading this one
    const other = ADMIN_RESOURCES.find((r) => r !== permission && !hasPermission([`${r}:write`], permission, 'lookup'))!;
    const resource = PATH_OF[permission] ?? permission;

    it('answers 401 without a token, with a bad or foreign token, and for a disabled or deleted account', async () => {
      const expired = jwt.sign({ sub: someId() }, testEnv().JWT_SECRET, { expiresIn: -10, audience: 'admin' });
      const foreign = jwt.sign({ sub: someId() }, 'another-secret-that-is-long-enough-000', { audience: 'admin' });
      const noToken = await request(app).get(`/api/admin/${resource}`);
      expect(noToken.status).toBe(401);
      expect(noToken.body).toEqual({ message: 'Please sign in again', code: 'UNAUTHORIZED' });
      for (const token of ['garbage', expired, foreign, disabledToken, deletedToken]) {
        const res = await list(resource, token);
        expect(res.status).toBe(401);
      }
    });

    it('answers 403 to an account without access to it, on reads and writes', async () => {
      const { token } = await createOperator([`${other}:write`]);
      expect((await list(resource, token)).status).toBe(403);
      const api = consoleApi(app, token);
      expect((await api.get(`/${resource}/${someId()}`)).status).toBe(403);
      const write = await api.put(`/${resource}/${someId()}`, {});
      expect(write.status).toBe(403);
      expect(write.body).toEqual({ message: 'You do not have permission to do this', code: 'FORBIDDEN' });
    });

    it('lists for a read-only account, with the paging headers, and refuses its writes', async () => {
      const { token } = await createOperator([`${permission}:read`]);
      const res = await list(resource, token);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.headers['content-range']).toMatch(new RegExp(`^${resource} \\d+-\\d+/\\d+$`));
      expect(res.headers['access-control-expose-headers']).toContain('Content-Range');
      const api = consoleApi(app, token);
      expect((await api.post(`/${resource}`, {})).status).toBe(403);
      expect((await api.put(`/${resource}/${someId()}`, {})).status).toBe(403);
      expect((await api.delete(`/${resource}/${someId()}`)).status).toBe(403);
    });

    if (!reviewedElsewhere.has(permission) && !readOnly.has(permission)) {
      it('lets an account with write access past the permission check (an unknown id is then 404)', async () => {
        const { token } = await createOperator([`${permission}:write`]);
        const res = await consoleApi(app, token).put(`/${resource}/${someId()}`, {});
        expect(res.status).toBe(404);
      });
    }
  });
});

describe('lists: paging, sorting, filters', () => {
  let api: ReturnType<typeof consoleApi>;
  beforeAll(async () => {
    api = consoleApi(app, (await createOperator()).token);
    await UserModel.insertMany(
      Array.from({ length: 319 }, (_, i) => ({
        telegramId: 500_000 + i,
        name: `Paged Player ${i}`,
        username: `paged${i}`,
        usernameLower: `paged${i}`,
        referralCode: `paged-${i}`,
        referrersCount: i % 7,
        status: i % 10 === 0 ? 'banned' : 'active',
      })),
    );
  });

  it('pages with the exact Content-Range ra-data-simple-rest reads', async () => {
    const first = await api.get('/users');
    expect(first.headers['content-range']).toBe('users 0-24/319');
    expect(first.body).toHaveLength(25);
    const middle = await api.get('/users', { range: [50, 59] });
    expect(middle.headers['content-range']).toBe('users 50-59/319');
    expect(middle.body).toHaveLength(10);
    const last = await api.get('/users', { range: [310, 329] });
    expect(last.headers['content-range']).toBe('users 310-318/319');
    expect(last.body).toHaveLength(9);
  });

  it('sorts by an allowed field in both directions', async () => {
    const asc = await api.get('/users', { sort: ['referrersCount', 'ASC'], range: [0, 318] });
    const counts = asc.body.map((u: { referrersCount: number }) => u.referrersCount);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const desc = await api.get('/users', { sort: ['referrersCount', 'DESC'], range: [0, 0] });
    expect(desc.body[0].referrersCount).toBe(6);
  });

  it('filters, and combines a filter with the search', async () => {
    const banned = await api.get('/users', { filter: { status: 'banned' } });
    expect(banned.headers['content-range']).toBe('users 0-24/32');
    expect(banned.body.every((u: { status: string }) => u.status === 'banned')).toBe(true);
    const search = await api.get('/users', { filter: { q: 'paged31', status: 'active' } });
    expect(search.body.map((u: { username: string }) => u.username).sort()).toEqual([
      'paged31',
      'paged311',
      'paged312',
      'paged313',
      'paged314',
      'paged315',
      'paged316',
      'paged317',
      'paged318',
    ]);
  });

  it('gets many by id (getMany), and nothing else', async () => {
    const page = await api.get('/users', { range: [0, 2] });
    const ids = page.body.map((u: { id: string }) => u.id);
    const many = await api.get('/users', { filter: { id: ids } });
    expect(many.body.map((u: { id: string }) => u.id).sort()).toEqual([...ids].sort());
    expect(many.headers['content-range']).toBe('users 0-2/3');
  });

  it.each([
    ['an unknown filter', { filter: { passwordHash: 'x' } }, 'filter'],
    ['a filter that is not an object', { filter: ['x'] }, 'filter'],
    ['a bad id in a filter', { filter: { referrer: 'not-an-id' } }, 'referrer'],
    ['a bad boolean', { filter: { isDemo: 'maybe' } }, 'isDemo'],
    ['a field that cannot be sorted by', { sort: ['referralCode', 'ASC'] }, 'sort'],
    ['a bad sort order', { sort: ['name', 'UP'] }, 'sort'],
    ['a range that is not two numbers', { range: [10] }, 'range'],
    ['a backwards range', { range: [10, 5] }, 'range'],
    ['a negative range', { range: [-1, 5] }, 'range'],
  ])('refuses %s with 400 and says which parameter', async (_case, query, field) => {
    const res = await api.get('/users', query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_INPUT');
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('refuses a parameter that is not JSON', async () => {
    const res = await request(app)
      .get('/api/admin/users?sort=name')
      .set('Authorization', `Bearer ${(await createOperator()).token}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ sort: 'sort must be JSON' });
  });

  it('takes date ranges on created dates', async () => {
    const future = await api.get('/users', { filter: { createdAt_gte: new Date(Date.now() + 60_000).toISOString() } });
    expect(future.headers['content-range']).toBe('users 0-0/0');
    expect(future.body).toEqual([]);
    const bad = await api.get('/users', { filter: { createdAt_lte: 'yesterday-ish' } });
    expect(bad.status).toBe(400);
  });
});

interface CrudCase {
  resource: AdminResource;
  model: AnyModel;
  valid: () => Record<string, unknown>;
  /** What the created record shows of the valid body. */
  shows: Record<string, unknown>;
  change: () => Record<string, unknown>;
  invalid: () => Record<string, unknown>;
  /** Field errors the invalid body gets, one per field. */
  errors: string[];
}

let coinSymbols = 0;

describe('create, show, update, delete, for every resource that has them', () => {
  let api: ReturnType<typeof consoleApi>;
  let coinId: string;
  let categoryId: string;
  beforeAll(async () => {
    api = consoleApi(app, (await createOperator()).token);
    coinId = String((await createCoin())._id);
    categoryId = String((await CategoryModel.create({ title: 'Fixtures' }))._id);
  });

  const cases: CrudCase[] = [
    {
      resource: 'categories',
      model: CategoryModel,
      valid: () => ({ title: 'Daily', order: 2 }),
      shows: { title: 'Daily', order: 2, enabled: true },
      change: () => ({ title: 'Weekly', order: 3, enabled: false }),
      invalid: () => ({ title: ' ', order: -1, image: 'ftp://example.com/a.png' }),
      errors: ['image', 'order', 'title'],
    },
    {
      resource: 'covers',
      model: CoverModel,
      valid: () => ({ title: 'Welcome', image: 'https://example.com/cover.png', order: 1 }),
      shows: { title: 'Welcome', image: 'https://example.com/cover.png' },
      change: () => ({ title: 'Season two', image: 'https://example.com/cover2.png' }),
      invalid: () => ({ image: 'not a url', link: 'javascript:alert(1)' }),
      errors: ['image', 'link'],
    },
    {
      resource: 'partners',
      model: PartnerModel,
      valid: () => ({ name: 'Acme', image: 'https://example.com/acme.png' }),
      shows: { name: 'Acme', link: '' },
      change: () => ({ name: 'Acme Two', image: 'https://example.com/acme.png', link: 'https://acme.example.com' }),
      invalid: () => ({ name: '', image: '' }),
      errors: ['image', 'name'],
    },
    {
      resource: 'gift-coins',
      model: GiftCoinModel,
      // a symbol is a coin's own: each record made here has another
      valid: () => ({ name: 'Gold', symbol: `GLD${++coinSymbols}`, decimals: 9, minWithdraw: '1.5', network: 'jetton' }),
      shows: { name: 'Gold', symbol: expect.stringMatching(/^GLD\d+$/), minWithdraw: '1.5', withdrawEnabled: false },
      // (withdrawals turned on and another jetton master wait for a second operator: accounts/waitingChanges.test.ts)
      change: () => ({
        name: 'Gold',
        symbol: 'GOLD',
        minWithdraw: '0.000001',
        network: 'jetton',
        usdPrice: '0.25',
      }),
      invalid: () => ({ name: '', symbol: 'G-1', decimals: 30, minWithdraw: '1.1234567' }),
      errors: ['decimals', 'minWithdraw', 'name', 'symbol'],
    },
    {
      resource: 'missions',
      model: MissionModel,
      valid: () => ({ category: categoryId, coin: coinId, title: 'Say hello', reward: '2.5', verifyType: 'auto' }),
      shows: { title: 'Say hello', reward: '2.5', verifyType: 'auto', claimButton: 'Claim', secretCodeSet: false },
      change: () => ({ category: categoryId, coin: coinId, title: 'Say hi', reward: '0.000001', verifyType: 'time', verifyDuration: 5 }),
      invalid: () => ({ category: 'nope', coin: coinId, title: '', reward: '-1', verifyType: 'fax' }),
      errors: ['category', 'reward', 'title', 'verifyType'],
    },
    {
      resource: 'staking-coins',
      model: StakingCoinModel,
      valid: () => ({ coin: coinId, minAmount: '1', maxAmount: '1000.5', profits: { week: '1.5', year: '40' } }),
      shows: { minAmount: '1', maxAmount: '1000.5', profits: { week: '1.5', month: '', threeMonths: '', sixMonths: '', year: '40' } },
      change: () => ({ coin: coinId, minAmount: '2', maxAmount: '20', profits: { month: '3' }, enabled: false }),
      invalid: () => ({ coin: 'x', minAmount: '0', maxAmount: 'lots', profits: { week: '5000' } }),
      errors: ['coin', 'maxAmount', 'minAmount', 'profits.week'],
    },
    {
      resource: 'accounts',
      model: AccountModel,
      valid: () => ({
        username: `support_${Math.random().toString(36).slice(2, 8)}`,
        password: 'long enough password',
        permissions: ['users:read'],
      }),
      shows: { permissions: ['users:read'], enabled: true, lastLoginAt: null },
      change: () => ({ username: 'support_renamed', permissions: ['users:write'], enabled: false }),
      invalid: () => ({ username: 'a!', password: 'short', permissions: ['users:admin'] }),
      errors: ['password', 'permissions.0', 'username'],
    },
  ];

  describe.each(cases.map((c) => [c.resource, c]))('%s', (_name, c) => {
    it('creates, shows, finds by id, updates and deletes a record', async () => {
      const before = await c.model.countDocuments();
      const created = await api.post(`/${c.resource}`, c.valid());
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject(c.shows);
      expect(created.body.id).toMatch(/^[a-f\d]{24}$/);
      expect(created.body.createdAt).toEqual(expect.any(String));
      expect(await c.model.countDocuments()).toBe(before + 1);
      const second = await api.post(`/${c.resource}`, c.valid());
      expect(second.status).toBe(201);

      const shown = await api.get(`/${c.resource}/${created.body.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(created.body);

      const many = await api.get(`/${c.resource}`, { filter: { id: [created.body.id, second.body.id] } });
      expect(many.body.map((r: { id: string }) => r.id).sort()).toEqual([created.body.id, second.body.id].sort());

      const updated = await api.put(`/${c.resource}/${created.body.id}`, { ...created.body, ...c.change() });
      expect(updated.body.errors).toBeUndefined();
      expect(updated.status).toBe(200);
      const expected = c.change();
      delete expected.profits;
      expect(updated.body).toMatchObject(expected);
      expect((await api.get(`/${c.resource}/${created.body.id}`)).body).toEqual(updated.body);

      const deleted = await api.delete(`/${c.resource}/${created.body.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.id).toBe(created.body.id);
      expect((await api.get(`/${c.resource}/${created.body.id}`)).status).toBe(404);
      expect(await c.model.countDocuments()).toBe(before + 1);
    });

    it('refuses a bad body field by field and writes nothing', async () => {
      const before = await c.model.countDocuments();
      const res = await api.post(`/${c.resource}`, c.invalid());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Invalid input', code: 'BAD_INPUT' });
      expect(Object.keys(res.body.errors).sort()).toEqual(c.errors);
      for (const message of Object.values(res.body.errors)) expect(message).toEqual(expect.any(String));
      expect(await c.model.countDocuments()).toBe(before);

      const kept = await api.post(`/${c.resource}`, c.valid());
      const edit = await api.put(`/${c.resource}/${kept.body.id}`, c.invalid());
      expect(edit.status).toBe(400);
      expect((await api.get(`/${c.resource}/${kept.body.id}`)).body).toEqual(kept.body);
    });
  });

  it('never lets the console create or delete a player, nor create or delete App Config', async () => {
    const player = await createPlayer();
    const users = await UserModel.countDocuments();
    expect((await api.post('/users', { inviteLimit: 5 })).status).toBe(403);
    const removal = await api.delete(`/users/${player._id}`);
    expect(removal.status).toBe(405);
    expect(removal.body.message).toBe('Cannot delete: a player keeps their ledger and records; block them instead');
    expect(await UserModel.countDocuments()).toBe(users);
    expect((await api.post('/app-config', {})).status).toBe(403);
    expect((await api.delete('/app-config/current')).status).toBe(403);
  });

  it('answers 400 for an id that is not one, 404 for one nobody has', async () => {
    expect((await api.get('/categories/not-an-id')).status).toBe(400);
    expect((await api.get(`/categories/${someId()}`)).status).toBe(404);
    expect((await api.delete(`/categories/${someId()}`)).status).toBe(404);
  });
});
