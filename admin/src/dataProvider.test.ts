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
