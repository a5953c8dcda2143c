import { authProvider, TotpRequired } from './authProvider';
import { i18nProvider } from './i18n/i18nProvider';
import { ADMIN_TOKEN_KEY, adminToken } from './session';

function jwtWith(claims: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = jest.spyOn(globalThis, 'fetch');
afterEach(() => fetchMock.mockReset());

describe('operator sign-in', () => {
  it('posts the username and password to /api/admin/login and keeps the token it gets back', async () => {
    const token = jwtWith({ sub: 'a1', username: 'maria', exp: Math.floor(Date.now() / 1000) + 3600 });
    fetchMock.mockResolvedValueOnce(answer(200, { token, account: { id: 'a1', username: 'maria', permissions: ['*'] } }));

    await authProvider.login({ username: 'maria', password: 'correct horse battery' });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/admin/login');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ username: 'maria', password: 'correct horse battery' });
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBe(token);
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ id: 'a1', fullName: 'maria' });
  });

  it("shows the server's message when the password is wrong, and keeps no token", async () => {
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }));
    await expect(authProvider.login({ username: 'maria', password: 'wrong' })).rejects.toThrow('Invalid username or password');
    expect(adminToken()).toBeNull();
    await expect(authProvider.checkAuth({})).rejects.toThrow();
  });

  it('says a wrong password in Persian in the Persian console', async () => {
    await i18nProvider.changeLocale('fa');
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }));
    await expect(authProvider.login({ username: 'maria', password: 'wrong' })).rejects.toThrow('نام کاربری یا رمز عبور نادرست است');
    await i18nProvider.changeLocale('en');
    expect(adminToken()).toBeNull();
  });

  it('treats an expired token as signed out', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, jwtWith({ sub: 'a1', exp: Math.floor(Date.now() / 1000) - 10 }));
    await expect(authProvider.checkAuth({})).rejects.toThrow();
    expect(adminToken()).toBeNull();
  });
});

describe('errors from the API', () => {
  beforeEach(() => localStorage.setItem(ADMIN_TOKEN_KEY, jwtWith({ sub: 'a1' })));

  it('signs the operator out on 401 (token revoked or expired)', async () => {
    await expect(authProvider.checkError({ status: 401 })).rejects.toThrow();
    expect(adminToken()).toBeNull();
  });

  it('keeps the operator signed in on 403 (signed in, just not allowed)', async () => {
    await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
    expect(adminToken()).not.toBeNull();
  });
});

describe('what the console shows an account', () => {
  it('hides resources the account has no permission for, and read-only ones from editing', async () => {
    const token = jwtWith({ sub: 'a2', username: 'support' });
    fetchMock.mockResolvedValueOnce(
      answer(200, { token, account: { id: 'a2', username: 'support', permissions: ['users:read', 'withdraws:write'] } }),
    );
    await authProvider.login({ username: 'support', password: 'x' });

    const can = (resource: string, action: string) => authProvider.canAccess!({ resource, action });
    await expect(can('users', 'list')).resolves.toBe(true);
    await expect(can('users', 'edit')).resolves.toBe(false);
    await expect(can('withdraws', 'edit')).resolves.toBe(true);
    await expect(can('accounts', 'list')).resolves.toBe(false);
    await expect(can('app-config', 'edit')).resolves.toBe(false);
  });

  it("lets a withdrawals operator open a withdrawal's player, read-only, and not the list of players", async () => {
    const token = jwtWith({ sub: 'a5', username: 'payouts' });
    fetchMock.mockResolvedValueOnce(answer(200, { token, account: { id: 'a5', username: 'payouts', permissions: ['withdraws:write'] } }));
    await authProvider.login({ username: 'payouts', password: 'x' });
    const can = (resource: string, action: string) => authProvider.canAccess!({ resource, action });
    await expect(can('users', 'show')).resolves.toBe(true);
    await expect(can('users', 'list')).resolves.toBe(false);
    await expect(can('users', 'edit')).resolves.toBe(false);
  });

  it('asks GET /api/admin/me, once, when this browser has a token but no saved account', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, jwtWith({ sub: 'a3', username: 'ops' }));
    fetchMock.mockResolvedValueOnce(answer(200, { id: 'a3', username: 'ops', permissions: ['missions:write'] }));

    await expect(authProvider.canAccess!({ resource: 'missions', action: 'create' })).resolves.toBe(true);
    await expect(authProvider.canAccess!({ resource: 'users', action: 'list' })).resolves.toBe(false);
    await expect(authProvider.canAccess!({ resource: 'users', action: 'show' })).resolves.toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(new Headers(fetchMock.mock.calls[0]![1]?.headers).get('Authorization')).toMatch(/^Bearer /);
  });

  it('shows nothing but the dashboard when the server does not confirm the account (its check refuses the token)', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, jwtWith({ sub: 'a4', username: 'gone' }));
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Please sign in' }));

    await expect(authProvider.canAccess!({ resource: 'users', action: 'list' })).resolves.toBe(false);
    await expect(authProvider.canAccess!({ resource: 'dashboard', action: 'list' })).resolves.toBe(true);
  });
});

describe('two-step sign-in', () => {
  it('stops at a right password of an account with two-step sign-in on: asks for the code, keeps no token', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { totpRequired: true }));
    await expect(authProvider.login({ username: 'maria', password: 'correct horse battery' })).rejects.toBeInstanceOf(TotpRequired);
    expect(adminToken()).toBeNull();
  });

  it('sends the code with the password, and keeps the token it gets back', async () => {
    const token = jwtWith({ sub: 'a1', username: 'maria', exp: Math.floor(Date.now() / 1000) + 3600 });
    fetchMock.mockResolvedValueOnce(answer(200, { token, account: { id: 'a1', username: 'maria', permissions: ['*'] } }));
    await authProvider.login({ username: 'maria', password: 'correct horse battery', totp: '123456' });
    expect(JSON.parse(fetchMock.mock.calls[0]![1]?.body as string)).toEqual({
      username: 'maria',
      password: 'correct horse battery',
      totp: '123456',
    });
    expect(adminToken()).toBe(token);
  });
});
