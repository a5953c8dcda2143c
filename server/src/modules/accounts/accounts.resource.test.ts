import bcrypt from 'bcryptjs';
import request from 'supertest';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator, OPERATOR_PASSWORD } from '../../../test/operators';
import { AccountModel } from './account.model';
import { PASSWORD_HASH_COST } from './accounts.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const signIn = (username: string, password: string) => request(app).post('/api/admin/login').send({ username, password });

describe('the accounts resource', () => {
  it('stores a new password as a slow hash, never shows it, and the new operator can sign in', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    const created = await api.post('/accounts', { username: 'new_support', password: 'first password 1', permissions: ['missions:write'] });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('passwordHash');
    expect(created.body).not.toHaveProperty('password');
    const listed = await api.get('/accounts', { filter: { q: 'new_supp' } });
    expect(listed.body).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toMatch(/passwordHash|\$2[aby]\$/);

    const stored = await AccountModel.findById(created.body.id).select('+passwordHash');
    expect(bcrypt.getRounds(stored!.passwordHash)).toBe(PASSWORD_HASH_COST);
    expect((await signIn('new_support', 'first password 1')).status).toBe(200);
  });

  it('keeps the password when the edit leaves it blank, and replaces it when one is typed', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    const { body: account } = await api.post('/accounts', { username: 'keeps_password', password: 'original password', permissions: [] });
    expect((await api.put(`/accounts/${account.id}`, { ...account, password: '', permissions: ['users:read'] })).status).toBe(200);
    expect((await signIn('keeps_password', 'original password')).status).toBe(200);
    expect((await api.put(`/accounts/${account.id}`, { ...account, password: 'replaced password' })).status).toBe(200);
    expect((await signIn('keeps_password', 'original password')).status).toBe(401);
    expect((await signIn('keeps_password', 'replaced password')).status).toBe(200);
  });

  it('refuses a username that is already taken, on create and on rename', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    await api.post('/accounts', { username: 'taken_name', password: 'long enough password' });
    const before = await AccountModel.countDocuments();
    const again = await api.post('/accounts', { username: 'taken_name', password: 'long enough password' });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ username: 'This username is already taken' });
    expect(await AccountModel.countDocuments()).toBe(before);
    const { body: other } = await api.post('/accounts', { username: 'other_name', password: 'long enough password' });
    const rename = await api.put(`/accounts/${other.id}`, { ...other, username: 'taken_name' });
    expect(rename.status).toBe(400);
    expect((await AccountModel.findById(other.id))!.username).toBe('other_name');
  });

  it('does not let an account disable itself, remove its own full access or delete itself', async () => {
    const me = await createOperator(['*']);
    const api = consoleApi(app, me.token);
    const self = (await api.get(`/accounts/${me.id}`)).body;

    const disable = await api.put(`/accounts/${me.id}`, { ...self, enabled: false });
    expect(disable.status).toBe(400);
    expect(disable.body).toMatchObject({
      message: 'You cannot disable your own account',
      errors: { enabled: 'You cannot disable your own account' },
    });
    const demote = await api.put(`/accounts/${me.id}`, { ...self, permissions: ['users:write'] });
    expect(demote.status).toBe(400);
    expect(demote.body.errors).toEqual({ permissions: 'You cannot remove your own full access' });
    const remove = await api.delete(`/accounts/${me.id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.message).toBe('You cannot delete your own account');

    const stored = await AccountModel.findById(me.id);
    expect(stored).toMatchObject({ enabled: true, permissions: ['*'] });
    // renaming itself is fine
    expect((await api.put(`/accounts/${me.id}`, { ...self, username: `${self.username}_x` })).status).toBe(200);
  });

  it('lets an operator with accounts access give only the access they have, and not touch full-access accounts', async () => {
    const manager = await createOperator(['accounts:write', 'users:read']);
    const api = consoleApi(app, manager.token);
    const before = await AccountModel.countDocuments();
    for (const permissions of [['*'], ['withdraws:write'], ['users:write']]) {
      const res = await api.post('/accounts', {
        username: `climber_${permissions[0]!.replace(/\W/g, '')}`,
        password: 'long enough password',
        permissions,
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['permissions']);
    }
    expect(await AccountModel.countDocuments()).toBe(before);
    const ok = await api.post('/accounts', { username: 'helper_reader', password: 'long enough password', permissions: ['users:read'] });
    expect(ok.status).toBe(201);

    // nor may it raise itself
    const self = (await api.get(`/accounts/${manager.id}`)).body;
    expect((await api.put(`/accounts/${manager.id}`, { ...self, permissions: ['*'] })).status).toBe(400);

    const boss = await createOperator(['*']);
    const bossRecord = (await api.get(`/accounts/${boss.id}`)).body;
    expect((await api.put(`/accounts/${boss.id}`, { ...bossRecord, password: 'taken over password' })).status).toBe(403);
    expect((await api.delete(`/accounts/${boss.id}`)).status).toBe(403);
    expect(await AccountModel.exists({ _id: boss.id })).toBeTruthy();
  });

  it('refuses the takeover of issue 6: an accounts:write operator setting the password of an account with access it lacks', async () => {
    const helpdesk = await createOperator(['accounts:write']);
    const finance = await createOperator(['users:write']);
    const api = consoleApi(app, helpdesk.token);
    const record = (await api.get(`/accounts/${finance.id}`)).body;

    const takeover = await api.put(`/accounts/${finance.id}`, { ...record, password: 'taken over password' });
    expect(takeover.status).toBe(403);
    expect(takeover.body.message).toBe('You cannot set the password of an account with access you do not have (users:write)');
    expect((await signIn(finance.account.username, 'taken over password')).status).toBe(401);
    expect((await api.put(`/accounts/${finance.id}`, { ...record, enabled: false })).status).toBe(403);
    expect((await api.put(`/accounts/${finance.id}`, { ...record, permissions: [] })).status).toBe(403);
    expect((await api.delete(`/accounts/${finance.id}`)).status).toBe(403);
    expect(await AccountModel.findById(finance.id)).toMatchObject({ enabled: true, permissions: ['users:write'] });
  });

  it("records who set another operator's password, and when", async () => {
    const boss = await createOperator(['*']);
    const colleague = await createOperator(['missions:write', 'accounts:write']);
    const api = consoleApi(app, boss.token);
    const record = (await api.get(`/accounts/${colleague.id}`)).body;
    const res = await api.put(`/accounts/${colleague.id}`, { ...record, password: 'reset by the boss 1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ passwordChangedBy: boss.id, passwordChangedAt: expect.any(String) });
    expect(res.body).not.toHaveProperty('tokenVersion');
    // a change of one's own password names nobody else
    const own = consoleApi(app, (await signIn(colleague.account.username, 'reset by the boss 1')).body.token);
    const mine = await own.put(`/accounts/${colleague.id}`, { ...record, password: 'my own password 1' });
    expect(mine.status).toBe(200);
    expect(mine.body.passwordChangedBy).toBeNull();
  });

  it('ends every earlier session at once on a password change, a disable, a rename or a permission change', async () => {
    const admin = consoleApi(app, (await createOperator()).token);
    const changes: Array<Record<string, unknown>> = [
      { password: 'a brand new password' },
      { enabled: false },
      { username: `renamed_${Date.now()}` },
      { permissions: ['covers:read'] },
    ];
    for (const change of changes) {
      const target = await createOperator(['users:read', 'covers:read']);
      const session = consoleApi(app, (await signIn(target.account.username, OPERATOR_PASSWORD)).body.token);
      expect((await session.get('/covers')).status).toBe(200);
      const record = (await admin.get(`/accounts/${target.id}`)).body;
      expect((await admin.put(`/accounts/${target.id}`, { ...record, ...change })).status).toBe(200);
      expect({ change, status: (await session.get('/covers')).status }).toEqual({ change, status: 401 });
    }
    // a save that changes none of these keeps the session
    const kept = await createOperator(['covers:read']);
    const session = consoleApi(app, (await signIn(kept.account.username, OPERATOR_PASSWORD)).body.token);
    await admin.put(`/accounts/${kept.id}`, (await admin.get(`/accounts/${kept.id}`)).body);
    expect((await session.get('/covers')).status).toBe(200);
    await admin.delete(`/accounts/${kept.id}`);
    expect((await session.get('/covers')).status).toBe(401);
  });

  it('searches by username and filters by enabled', async () => {
    const api = consoleApi(app, (await createOperator()).token);
    await api.post('/accounts', { username: 'findme_on', password: 'long enough password' });
    await api.post('/accounts', { username: 'findme_off', password: 'long enough password', enabled: false });
    const off = await api.get('/accounts', { filter: { q: 'FINDME', enabled: false } });
    expect(off.body.map((a: { username: string }) => a.username)).toEqual(['findme_off']);
    const sorted = await api.get('/accounts', { filter: { q: 'findme' }, sort: ['username', 'ASC'] });
    expect(sorted.body.map((a: { username: string }) => a.username)).toEqual(['findme_off', 'findme_on']);
  });
});
