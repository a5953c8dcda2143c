import bcrypt from 'bcryptjs';
import request from 'supertest';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createOperator, OPERATOR_PASSWORD } from '../../../test/operators';
import { AccountModel } from './account.model';
import { bootstrapSuperAdmin, PASSWORD_HASH_COST } from './accounts.service';

const newApp = () => createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('operator sign-in', () => {
  const app = newApp();
  const signIn = (username: string, password: string) => request(app).post('/api/admin/login').send({ username, password });

  it('gives a token for the right password, and that token opens the console and says who is signed in', async () => {
    const { account } = await createOperator(['users:read']);
    const res = await signIn(account.username, OPERATOR_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));

    const me = await request(app).get('/api/admin/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: String(account._id), username: account.username, permissions: ['users:read'] });
    const users = await request(app).get('/api/admin/users').set('Authorization', `Bearer ${res.body.token}`);
    expect(users.status).toBe(200);
  });

  it('records when the operator last signed in', async () => {
    const { account } = await createOperator();
    expect(account.lastLoginAt).toBeNull();
    await signIn(account.username, OPERATOR_PASSWORD).expect(200);
    const reloaded = await AccountModel.findById(account._id);
    expect(reloaded!.lastLoginAt).toBeInstanceOf(Date);
  });

  it('answers a wrong password and an unknown username with the same 401 body', async () => {
    const { account } = await createOperator();
    const wrong = await signIn(account.username, 'not the password');
    const unknown = await signIn('nobody_by_that_name', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a disabled account even with the right password, with the same answer', async () => {
    const { account } = await createOperator(['*'], { enabled: false });
    const res = await signIn(account.username, OPERATOR_PASSWORD);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid username or password');
  });

  it('refuses a bad body field by field', async () => {
    const res = await request(app).post('/api/admin/login').send({ username: '  ' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ username: 'This field is required', password: expect.any(String) });
  });

  it('never sends the password hash, not even to itself', async () => {
    const { token } = await createOperator();
    const me = await request(app).get('/api/admin/me').set('Authorization', `Bearer ${token}`);
    expect(JSON.stringify(me.body)).not.toContain('$2');
  });

  it('does not say who is signed in without a valid token', async () => {
    expect((await request(app).get('/api/admin/me')).status).toBe(401);
    expect((await request(app).get('/api/admin/me').set('Authorization', 'Bearer nonsense')).status).toBe(401);
  });
});

describe('sign-in rate limit', () => {
  it('answers 429 after 10 failed tries for one username, even to the right password, and not for another username', async () => {
    const app = newApp();
    const { account } = await createOperator();
    const other = await createOperator();
    for (let i = 0; i < 10; i++) {
      const res = await request(app)
        .post('/api/admin/login')
        .send({ username: account.username, password: `guess number ${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await request(app).post('/api/admin/login').send({ username: account.username, password: OPERATOR_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: 'Too many requests, try again later', code: 'RATE_LIMITED' });
    const otherUser = await request(app).post('/api/admin/login').send({ username: other.account.username, password: OPERATOR_PASSWORD });
    expect(otherUser.status).toBe(200);
  });

  it('lets 20 simultaneous right sign-ins from one address all in, and counts none of them toward the lockout', async () => {
    const app = newApp();
    const { account } = await createOperator();
    const signIn = (password: string) => request(app).post('/api/admin/login').send({ username: account.username, password });
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(OPERATOR_PASSWORD)));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    // the office's sign-ins left the whole allowance of failures
    for (let i = 0; i < 10; i++) expect((await signIn(`guess number ${i}`)).status).toBe(401);
    const blocked = await signIn(OPERATOR_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('checks at most 10 of 25 simultaneous wrong passwords, refuses the rest with 429, and then the right one too', async () => {
    const app = newApp();
    const { account } = await createOperator();
    const signIn = (password: string) => request(app).post('/api/admin/login').send({ username: account.username, password });
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => signIn(`guess number ${i}`)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect((await signIn(OPERATOR_PASSWORD)).status).toBe(429);
  });

  it('does not count successful sign-ins', async () => {
    const app = newApp();
    const { account } = await createOperator();
    for (let i = 0; i < 12; i++) {
      const res = await request(app).post('/api/admin/login').send({ username: account.username, password: OPERATOR_PASSWORD });
      expect(res.status).toBe(200);
    }
  });
});

describe('the super-admin from the environment', () => {
  it('is created with full access and a slow hash, and signs in', async () => {
    await bootstrapSuperAdmin('root_admin', 'a long enough password');
    const account = await AccountModel.findOne({ username: 'root_admin' }).select('+passwordHash');
    expect(account!.permissions).toEqual(['*']);
    expect(bcrypt.getRounds(account!.passwordHash)).toBe(PASSWORD_HASH_COST);
    const res = await request(newApp()).post('/api/admin/login').send({ username: 'root_admin', password: 'a long enough password' });
    expect(res.status).toBe(200);
  });

  it('gets back full access, its enabled flag and the configured password on the next start', async () => {
    await bootstrapSuperAdmin('restored_admin', 'first password 123');
    await AccountModel.updateOne({ username: 'restored_admin' }, { $set: { permissions: ['users:read'], enabled: false } });
    await bootstrapSuperAdmin('restored_admin', 'second password 456');
    expect(await AccountModel.countDocuments({ username: 'restored_admin' })).toBe(1);
    const app = newApp();
    expect((await request(app).post('/api/admin/login').send({ username: 'restored_admin', password: 'first password 123' })).status).toBe(
      401,
    );
    const res = await request(app).post('/api/admin/login').send({ username: 'restored_admin', password: 'second password 456' });
    expect(res.status).toBe(200);
    const me = await request(app).get('/api/admin/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.body.permissions).toEqual(['*']);
  });
});
