import bcrypt from 'bcryptjs';
import mongoose from 'mongoose';
import request from 'supertest';
import { createApp } from '../../app';
import { signAdminToken } from '../../http/adminAuth';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator, OPERATOR_PASSWORD } from '../../../test/operators';
import { enrolTotp, totpCodeAt as codeAt } from '../../../test/totp';
import { AuditEntryModel } from '../audit/audit.model';
import { AccountModel } from './account.model';
import { OperatorSessionModel, SignInAttemptModel } from './operatorSecurity.models';

const newApp = () => createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const app = newApp();

const DESK = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile Safari/604.1';

const signIn = (username: string, fields: Record<string, string> = {}, userAgent = DESK, server = app) =>
  request(server)
    .post('/api/admin/login')
    .set('User-Agent', userAgent)
    .send({ username, password: OPERATOR_PASSWORD, ...fields });
const me = (token: string) => request(app).get('/api/admin/me').set('Authorization', `Bearer ${token}`);

/** Two sessions of one operator, signed in through the form: at a desk and on a phone. */
async function twoSessions(permissions: string[] = ['users:read']) {
  const { account, id } = await createOperator(permissions);
  // the factory's own session is not one of these two
  await OperatorSessionModel.deleteMany({ account: account._id });
  const desk = (await signIn(account.username).expect(200)).body.token as string;
  const phone = (await signIn(account.username, {}, PHONE).expect(200)).body.token as string;
  return { account, id, desk, phone };
}

/** An operator who turned two-step sign-in on through the console: the key of their app. */
async function enrolled(permissions: string[] = ['users:read']) {
  const operator = await createOperator(permissions);
  const secret = await enrolTotp(async (method, pathname, body) => {
    const call = method === 'POST' ? request(app).post(pathname) : request(app).put(pathname);
    return call.set('Authorization', `Bearer ${operator.token}`).send(body as object);
  });
  return { ...operator, secret };
}

describe('sign-in history', () => {
  it('records every attempt on an account with its time, address, browser and outcome, never the password or code', async () => {
    const { account, secret, token } = await enrolled();
    const started = new Date();
    await signIn(account.username, { password: 'not the password' }).expect(401);
    await signIn(account.username).expect(200, { totpRequired: true });
    // the code that confirmed the enrolment is used: refused as a reused code, like a wrong one
    await signIn(account.username, { totp: await codeAt(secret) }).expect(401);
    await signIn(account.username, { totp: '000000' === (await codeAt(secret, 30)) ? '111111' : '000000' }, PHONE).expect(401);
    await signIn(account.username, { totp: await codeAt(secret, 30) }).expect(200);

    const history = await consoleApi(app, token).get('/accounts/me/sign-ins');
    expect(history.status).toBe(200);
    expect(history.body.map((attempt: { outcome: string }) => attempt.outcome)).toEqual([
      'success',
      'wrong-code',
      'wrong-code',
      'code-required',
      'wrong-password',
    ]);
    expect(history.body[1]).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1/), userAgent: PHONE });
    expect(new Date(history.body[0].at).getTime()).toBeGreaterThanOrEqual(started.getTime());
    const stored = JSON.stringify(await SignInAttemptModel.find({ account: account._id }).lean());
    expect(stored).not.toContain('not the password');
    expect(stored).not.toContain(await codeAt(secret, 30));
  });

  it('records a disabled account and an address locked out after too many failures', async () => {
    const disabled = await createOperator(['users:read'], { enabled: false });
    expect((await signIn(disabled.account.username)).status).toBe(401);
    const locked = await createOperator(['users:read']);
    const server = newApp();
    for (let i = 0; i < 10; i++) await signIn(locked.account.username, { password: 'guess number ' + i }, DESK, server).expect(401);
    expect((await signIn(locked.account.username, {}, DESK, server)).status).toBe(429);

    const outcomes = async (id: mongoose.Types.ObjectId) =>
      (await SignInAttemptModel.find({ account: id }).sort({ at: -1 }).lean()).map((a) => a.outcome);
    expect(await outcomes(disabled.account._id)).toEqual(['disabled']);
    expect(await outcomes(locked.account._id)).toEqual(['rate-limited', ...Array<string>(10).fill('wrong-password')]);
  });

  it('is shown for another account to an operator with the accounts permission, and to no one else', async () => {
    const { account, id } = await createOperator(['users:read']);
    await signIn(account.username).expect(200);
    const reader = await createOperator(['accounts:read']);
    const other = await createOperator(['users:write']);
    const shown = await consoleApi(app, reader.token).get(`/accounts/${id}/sign-ins`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual([expect.objectContaining({ outcome: 'success', userAgent: DESK })]);
    expect((await consoleApi(app, other.token).get(`/accounts/${id}/sign-ins`)).status).toBe(403);
    // their own is theirs alone: another's history is not reached through /me
    expect((await consoleApi(app, other.token).get('/accounts/me/sign-ins')).body).toEqual([]);
  });
});

describe('sessions', () => {
  it('lists the live sessions; one signed out is refused on its next request while the other still works', async () => {
    const { id, desk, phone } = await twoSessions();
    const listed = await consoleApi(app, desk).get('/accounts/me/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ userAgent: PHONE, current: false, ip: expect.stringMatching(/127\.0\.0\.1/) }),
      expect.objectContaining({ userAgent: DESK, current: true }),
    ]);
    const phoneSession = listed.body[0].id as string;

    expect((await consoleApi(app, desk).delete(`/accounts/me/sessions/${phoneSession}`)).status).toBe(200);
    expect((await me(phone)).status).toBe(401);
    expect((await me(desk)).status).toBe(200);
    expect((await consoleApi(app, desk).get('/accounts/me/sessions')).body).toEqual([expect.objectContaining({ current: true })]);
    // signed out once: a second time finds no live session
    expect((await consoleApi(app, desk).delete(`/accounts/me/sessions/${phoneSession}`)).status).toBe(404);
    expect(await OperatorSessionModel.countDocuments({ account: id, revokedAt: null })).toBe(1);
  });

  it('signs out every other session of the operator, keeping the one in use', async () => {
    const { account, desk, phone } = await twoSessions();
    const third = (await signIn(account.username).expect(200)).body.token as string;
    expect((await consoleApi(app, desk).delete('/accounts/me/sessions')).body).toEqual({ revoked: 2 });
    expect([(await me(desk)).status, (await me(phone)).status, (await me(third)).status]).toEqual([200, 401, 401]);
  });

  it('are signed out by an operator with the accounts permission (audited), not by one who only reads accounts', async () => {
    const { id, desk, phone } = await twoSessions();
    const reader = await createOperator(['accounts:read']);
    const admin = await createOperator(['*']);
    const sessions = await consoleApi(app, reader.token).get(`/accounts/${id}/sessions`);
    expect(sessions.body).toHaveLength(2);
    expect((await consoleApi(app, reader.token).delete(`/accounts/${id}/sessions`)).status).toBe(403);
    expect((await me(desk)).status).toBe(200);

    expect((await consoleApi(app, admin.token).delete(`/accounts/${id}/sessions/${sessions.body[1].id as string}`)).status).toBe(200);
    expect([(await me(desk)).status, (await me(phone)).status]).toEqual([401, 200]);
    expect((await consoleApi(app, admin.token).delete(`/accounts/${id}/sessions`)).body).toEqual({ revoked: 1 });
    expect((await me(phone)).status).toBe(401);
    const notes = (await AuditEntryModel.find({ record: id, account: admin.id }).lean()).map((entry) => entry.note);
    expect(notes).toEqual(['session signed out by another operator', 'all sessions signed out by another operator']);
  });

  it('all end with a password change, and a session signed out elsewhere is refused in the console (401)', async () => {
    const { account, id, desk, phone } = await twoSessions();
    const admin = await createOperator(['*']);
    const record = (await consoleApi(app, admin.token).get(`/accounts/${id}`)).body as Record<string, unknown>;
    expect((await consoleApi(app, admin.token).put(`/accounts/${id}`, { ...record, password: 'a fresh pass phrase' })).status).toBe(200);
    expect([(await me(desk)).status, (await me(phone)).status]).toEqual([401, 401]);
    const again = (await signIn(account.username, { password: 'a fresh pass phrase' }).expect(200)).body.token as string;
    expect((await consoleApi(app, again).get('/accounts/me/sessions')).body).toHaveLength(1);
  });

  it('costs a console request two reads by id (account and session) and a write at most once a minute', async () => {
    const { id, desk } = await twoSessions();
    const commands: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => void commands.push(`${collection}.${method}`));
    try {
      await me(desk).expect(200);
      await me(desk).expect(200);
      // read at once, in either order
      expect(commands.sort()).toEqual(['accounts.findOne', 'accounts.findOne', 'operatorsessions.findOne', 'operatorsessions.findOne']);

      // a minute later the request moves "last seen" on, once
      await OperatorSessionModel.updateMany({ account: id }, { $set: { lastSeenAt: new Date(Date.now() - 61_000) } });
      commands.length = 0;
      await me(desk).expect(200);
      await me(desk).expect(200);
      expect(commands.filter((command) => command === 'operatorsessions.updateOne')).toHaveLength(1);
    } finally {
      mongoose.set('debug', false);
    }
    const sessions = await OperatorSessionModel.find({ account: id }).sort({ createdAt: 1 }).lean();
    expect(Date.now() - sessions[0]!.lastSeenAt.getTime()).toBeLessThan(10_000);
    expect(Date.now() - sessions[1]!.lastSeenAt.getTime()).toBeGreaterThan(60_000);
  });

  it('refuses a token whose session expired, and a token without a session', async () => {
    const { id, desk } = await twoSessions();
    await OperatorSessionModel.updateMany({ account: id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await me(desk)).status).toBe(401);
    const sessionless = signAdminToken({ id, username: 'x', sessionId: new mongoose.Types.ObjectId().toHexString() }, testEnv().JWT_SECRET);
    expect((await me(sessionless)).status).toBe(401);
  });
});

describe('password policy', () => {
  const admin = () => createOperator(['*']);
  const fieldError = (res: request.Response) => ({ status: res.status, password: (res.body.errors as Record<string, string>)?.password });

  it('refuses a short password, one containing the username, and a common one, when an account is created', async () => {
    const api = consoleApi(app, (await admin()).token);
    const create = (username: string, password: string) => api.post('/accounts', { username, password, permissions: [] });
    expect(fieldError(await create('policy_short', 'eleven char'))).toEqual({ status: 400, password: 'At least 12 characters' });
    expect(fieldError(await create('Policy_Name', 'my policy_name is long'))).toEqual({
      status: 400,
      password: 'The password must not contain the username',
    });
    const common = 'This password is too common or too easy to guess: choose another';
    for (const password of ['Password123456!', 'qwertyuiop2024', 'P@ssw0rd!!!!!!', '123456789012', 'aaaaaaaaaaaaaaa'])
      expect(fieldError(await create('policy_common', password))).toEqual({ status: 400, password: common });
    expect(await AccountModel.exists({ usernameKey: { $in: ['policy_short', 'policy_name', 'policy_common'] } })).toBeNull();
    expect((await create('policy_good', 'seven blue kites singing')).status).toBe(201);
  });

  it('applies to a reset by another operator and to a change by the operator themselves; nothing changes when refused', async () => {
    const boss = await admin();
    const own = await createOperator(['accounts:write']);
    const record = (await consoleApi(app, boss.token).get(`/accounts/${own.id}`)).body as Record<string, unknown>;
    const hashBefore = (await AccountModel.findById(own.id).select('+passwordHash').lean())!.passwordHash;
    const reset = await consoleApi(app, boss.token).put(`/accounts/${own.id}`, { ...record, password: `${String(record.username)}-2024` });
    expect(fieldError(reset)).toEqual({ status: 400, password: 'The password must not contain the username' });
    const changed = await consoleApi(app, own.token).put(`/accounts/${own.id}`, { ...record, password: 'letmein12345' });
    expect(fieldError(changed)).toEqual({ status: 400, password: 'This password is too common or too easy to guess: choose another' });
    expect((await AccountModel.findById(own.id).select('+passwordHash').lean())!.passwordHash).toBe(hashBefore);
    expect((await me(own.token)).status).toBe(200);
  });

  it('still signs in an account whose password was set before the policy', async () => {
    const { account } = await createOperator(['users:read'], { passwordHash: bcrypt.hashSync('admin123', 4) });
    expect((await signIn(account.username, { password: 'admin123' })).body.token).toEqual(expect.any(String));
  });
});

describe("resetting another operator's two-step sign-in", () => {
  it('is refused without the accounts permission, over greater access, and on oneself', async () => {
    const target = await enrolled(['users:read', 'gifts:read']);
    const reader = await createOperator(['accounts:read', 'users:read', 'gifts:read']);
    const lesser = await createOperator(['accounts:write']);
    expect((await consoleApi(app, reader.token).delete(`/accounts/${target.id}/totp`)).status).toBe(403);
    const over = await consoleApi(app, lesser.token).delete(`/accounts/${target.id}/totp`);
    expect(over.status).toBe(403);
    const self = await consoleApi(app, target.token).delete(`/accounts/${target.id}/totp`);
    expect(self.status).toBe(403);
    const admin = await enrolled(['*']);
    const mine = await consoleApi(app, admin.token).delete(`/accounts/${admin.id}/totp`);
    expect(mine.status).toBe(400);
    expect(mine.body.errors).toEqual({ totp: 'Turn your own two-step sign-in off on My account, with a code' });
    for (const id of [target.id, admin.id]) expect((await AccountModel.findById(id).lean())!.totpEnabled).toBe(true);
  });

  it('turns it off, ends every session of the account, is audited, and the account enrols again', async () => {
    const target = await enrolled(['users:read']);
    const session = (await signIn(target.account.username, { totp: await codeAt(target.secret, 30) }).expect(200)).body.token as string;
    const admin = await createOperator(['*']);
    const reset = await consoleApi(app, admin.token).delete(`/accounts/${target.id}/totp`);
    expect(reset.status).toBe(200);
    expect([(await me(target.token)).status, (await me(session)).status]).toEqual([401, 401]);
    expect(await AuditEntryModel.findOne({ record: target.id, note: 'two-step sign-in reset by another operator' }).lean()).toMatchObject({
      account: expect.anything(),
      before: { totpEnabled: true },
      after: { totpEnabled: false },
    });
    const stored = await AccountModel.findById(target.id).select('+totpSecret +totpRecoveryCodes').lean();
    expect(stored).toMatchObject({ totpEnabled: false, totpSecret: null, totpRecoveryCodes: [] });
    expect((await consoleApi(app, admin.token).delete(`/accounts/${target.id}/totp`)).body.errors).toEqual({
      totp: 'Two-step sign-in is not on for this account',
    });

    // the password alone signs in now, and the account enrols again with a new key
    const back = (await signIn(target.account.username).expect(200)).body.token as string;
    expect(back).toEqual(expect.any(String));
    const enrolment = await consoleApi(app, back).post('/accounts/me/totp');
    expect(enrolment.body.secret).not.toBe(target.secret);
  });
});
