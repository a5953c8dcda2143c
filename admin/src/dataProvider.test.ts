import { HttpError } from 'react-admin';
import { dataProvider } from './dataProvider';
import { i18nProvider } from './i18n/i18nProvider';
import { ADMIN_TOKEN_KEY } from './session';

const fetchMock = jest.spyOn(globalThis, 'fetch');
afterEach(() => fetchMock.mockReset());

function list(rows: unknown[], range: string) {
  return new Response(JSON.stringify(rows), { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': range } });
}

it("sends the operator's token and reads the total from Content-Range", async () => {
  localStorage.setItem(ADMIN_TOKEN_KEY, 'the.operator.token');
  fetchMock.mockResolvedValueOnce(list([{ id: 'u1', name: 'Ali' }], 'users 0-0/42'));

  const result = await dataProvider.getList('users', {
    pagination: { page: 1, perPage: 25 },
    sort: { field: 'createdAt', order: 'DESC' },
    filter: { q: 'ali' },
  });

  expect(result.total).toBe(42);
  expect(result.data).toEqual([{ id: 'u1', name: 'Ali' }]);
  const [url, init] = fetchMock.mock.calls[0]!;
  const requested = new URL(url instanceof Request ? url.url : String(url), 'http://console.test');
  expect(requested.pathname).toBe('/api/admin/users');
  expect(JSON.parse(requested.searchParams.get('range')!)).toEqual([0, 24]);
  expect(JSON.parse(requested.searchParams.get('sort')!)).toEqual(['createdAt', 'DESC']);
  expect(JSON.parse(requested.searchParams.get('filter')!)).toEqual({ q: 'ali' });
  expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer the.operator.token');
});

it("carries the server's field messages so the form can show them next to each input", async () => {
  localStorage.setItem(ADMIN_TOKEN_KEY, 'the.operator.token');
  fetchMock.mockResolvedValueOnce(
    new Response(
      JSON.stringify({
        message: 'Invalid input',
        code: 'BAD_INPUT',
        errors: { reward: 'Enter an amount like 12 or 12.5 (at most 6 decimals)' },
      }),
      {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      },
    ),
  );

  await expect(dataProvider.create('missions', { data: { title: 'Join', reward: '1.2345678' } })).rejects.toMatchObject({
    status: 400,
    body: { errors: { reward: 'Enter an amount like 12 or 12.5 (at most 6 decimals)' } },
  });
  const [, init] = fetchMock.mock.calls[0]!;
  expect(init?.method).toBe('POST');
  expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer the.operator.token');
});

it("reads and saves App Config under the singleton id 'current', as its one form asks", async () => {
  localStorage.setItem(ADMIN_TOKEN_KEY, 'the.operator.token');
  const stored = { id: '6b014184f85788bdcff624f7', botUsername: 'GiftRewardsBot' };
  fetchMock.mockImplementation(
    async () => new Response(JSON.stringify(stored), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );

  const read = await dataProvider.getOne('app-config', { id: 'current' });
  const saved = await dataProvider.update('app-config', {
    id: 'current',
    data: { botUsername: 'GiftRewardsBot' },
    previousData: read.data,
  });

  expect(read.data).toEqual({ id: 'current', botUsername: 'GiftRewardsBot' });
  expect(saved.data.id).toBe('current');
  expect(fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url instanceof Request ? url.url : String(url)}`)).toEqual([
    'GET /api/admin/app-config/current',
    'PUT /api/admin/app-config/current',
  ]);
});

describe('in the Persian console', () => {
  const refusal = (status: number, body: object) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  beforeEach(async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'the.operator.token');
    await i18nProvider.changeLocale('fa');
  });
  afterEach(() => i18nProvider.changeLocale('en'));

  it("writes a refusal from its code's Persian template with the server's values, and keeps the field messages to translate", async () => {
    fetchMock.mockResolvedValueOnce(
      refusal(409, {
        message: 'Only a pending mission can be approved or rejected; this one is done',
        code: 'MISSION_NOT_PENDING',
        params: { status: 'done' },
      }),
    );
    await expect(dataProvider.update('user-missions', { id: 'p1', data: { status: 'done' }, previousData: { id: 'p1' } })).rejects.toThrow(
      'فقط ماموریت در انتظار بررسی را می‌توان تأیید یا رد کرد؛ وضعیت این ماموریت done است',
    );

    fetchMock.mockResolvedValueOnce(
      refusal(400, { message: 'Invalid input', code: 'BAD_INPUT', errors: { reward: 'Must be more than 0' } }),
    );
    const error = await dataProvider.create('missions', { data: { reward: '0' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('ورودی نامعتبر است');
    // react-admin puts these on the fields and translates them there
    expect((error as HttpError).body).toMatchObject({ errors: { reward: 'Must be more than 0' } });
  });

  it('keeps a message the server wrote for the case, with values of its own, as it came', async () => {
    const message = 'Telegram did not accept this token (Unauthorized): copy it again from BotFather';
    fetchMock.mockResolvedValueOnce(refusal(400, { message, code: 'BAD_INPUT', errors: { botToken: message } }));
    await expect(dataProvider.update('app-config', { id: 'current', data: {}, previousData: { id: 'current' } })).rejects.toThrow(message);
  });
});

describe("the console's own calls", () => {
  const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  const sent = () =>
    fetchMock.mock.calls.map(([url, init]) => ({
      call: `${init?.method ?? 'GET'} ${url instanceof Request ? url.url : String(url)}`,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      token: new Headers(init?.headers).get('Authorization'),
    }));
  beforeEach(() => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'the.operator.token');
    fetchMock.mockImplementation(async () => answer({ changed: [] }));
  });

  it('posts each body the server parses to its route, with the ids in the path encoded, and answers what the server sent', async () => {
    fetchMock.mockResolvedValueOnce(answer({ reviewed: ['p1'], refused: { p2: 'Only a pending mission can be reviewed' } }));
    await expect(dataProvider.bulkReview({ ids: ['p1', 'p2'], status: 'rejected', rejectReason: 'Blurry' })).resolves.toEqual({
      reviewed: ['p1'],
      refused: { p2: 'Only a pending mission can be reviewed' },
    });
    const adjustment = { coin: 'c1', amount: '2.5', direction: 'credit' as const, note: 'Sorry', idempotencyKey: 'key-12345' };
    await dataProvider.adjustBalance('u/1', adjustment);
    await dataProvider.clawBack('u1', { entryId: 'e1', reason: 'Farm' });
    await dataProvider.setPlayerStatus({ ids: ['u1'], status: 'frozen', statusReason: 'Checking' });
    await dataProvider.rejectGift('g1', 'Too much');
    await dataProvider.approveGrant('a1');
    await dataProvider.setMissionsEnabled(['m1'], false);
    await dataProvider.reorderMissions('k1', ['m2', 'm1']);
    await dataProvider.countSegment({ language: 'fa' });
    await dataProvider.clearRisk('u1');

    expect(sent().slice(1)).toEqual([
      { call: 'POST /api/admin/users/u%2F1/adjustments', body: adjustment, token: 'Bearer the.operator.token' },
      { call: 'POST /api/admin/users/u1/claw-backs', body: { entryId: 'e1', reason: 'Farm' }, token: 'Bearer the.operator.token' },
      {
        call: 'POST /api/admin/users/status',
        body: { ids: ['u1'], status: 'frozen', statusReason: 'Checking' },
        token: 'Bearer the.operator.token',
      },
      { call: 'POST /api/admin/gifts/g1/reject', body: { rejectReason: 'Too much' }, token: 'Bearer the.operator.token' },
      { call: 'POST /api/admin/account-grants/a1/approve', body: {}, token: 'Bearer the.operator.token' },
      { call: 'POST /api/admin/missions/enabled', body: { ids: ['m1'], enabled: false }, token: 'Bearer the.operator.token' },
      { call: 'POST /api/admin/missions/reorder', body: { category: 'k1', ids: ['m2', 'm1'] }, token: 'Bearer the.operator.token' },
      { call: 'POST /api/admin/broadcasts/count', body: { segment: { language: 'fa' } }, token: 'Bearer the.operator.token' },
      { call: 'POST /api/admin/risk/u1/clear', body: {}, token: 'Bearer the.operator.token' },
    ]);
  });

  it('sends a decision on what waits to its approve or reject route, by whether it carries a reason', async () => {
    await dataProvider.decideMissionReward('m1', { id: 'w1' });
    await dataProvider.decideConfigReward('streakMilestones', { id: 'w2', rejectReason: 'Too generous' });
    await dataProvider.decideChange('staking-coins', 's1', { id: 'w3' });

    expect(sent().map(({ call, body }) => ({ call, body }))).toEqual([
      { call: 'POST /api/admin/missions/m1/reward/approve', body: { id: 'w1' } },
      {
        call: 'POST /api/admin/app-config/current/rewards/streakMilestones/reject',
        body: { id: 'w2', rejectReason: 'Too generous' },
      },
      { call: 'POST /api/admin/staking-coins/s1/change/approve', body: { id: 'w3' } },
    ]);
  });

  it("reads the dashboard for the range asked, and a broadcast's failures", async () => {
    await dataProvider.getDashboard();
    await dataProvider.getDashboard({ from: '2026-01-01', to: '2026-01-31' });
    await dataProvider.broadcastFailures('b1');

    expect(sent().map(({ call }) => call)).toEqual([
      'GET /api/admin/dashboard',
      'GET /api/admin/dashboard?from=2026-01-01&to=2026-01-31',
      'GET /api/admin/broadcasts/b1/failures',
    ]);
  });
});

describe('a save of a record with a money brake', () => {
  const stored = (brakeState: string) => ({ id: 'm1', title: 'Share', reward: '10', brakeState });
  const bodies = () => fetchMock.mock.calls.map(([, init]) => JSON.parse(init?.body as string) as Record<string, unknown>);
  beforeEach(() => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'the.operator.token');
    fetchMock.mockImplementation(
      async () => new Response(JSON.stringify(stored('fresh')), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
  });

  it('sends the brake state of the record the form was opened on, whatever the form values carry', async () => {
    // the form's values were refilled from a later read; the record it was opened on is what the operator saw
    await dataProvider.update('missions', { id: 'm1', data: { ...stored('later'), title: 'Join' }, previousData: stored('opened') });
    await dataProvider.update('app-config', {
      id: 'current',
      data: { botUsername: 'GiftBot' },
      previousData: { id: 'current', brakeState: 'cfg' },
    });

    expect(bodies()).toEqual([
      { id: 'm1', title: 'Join', reward: '10', brakeState: 'opened' },
      { botUsername: 'GiftBot', brakeState: 'cfg' },
    ]);
  });

  it('sends none when the record it was opened on has none (a record without brakes)', async () => {
    await dataProvider.update('categories', { id: 'k1', data: { title: 'Stories', brakeState: 'typed' }, previousData: { id: 'k1' } });

    expect(bodies()).toEqual([{ title: 'Stories' }]);
  });
});
