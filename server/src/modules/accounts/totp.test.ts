import request from 'supertest';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer } from '../../../test/factories';
import { consoleApi, createOperator, OPERATOR_PASSWORD } from '../../../test/operators';
import { totpCodeAt as codeAt } from '../../../test/totp';
import { toMicros } from '@gift/shared';
import { AuditEntryModel } from '../audit/audit.model';
import { balanceOf } from '../ledger/ledger.service';
import { AccountModel } from './account.model';

const appFor = (env: Record<string, string> = {}) =>
  createApp({ env: testEnv(env), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const app = appFor();
// production as NODE_ENV=production loads it (a database address is required there; these tests use the test one)
const production = appFor({ NODE_ENV: 'production', MONGO_URL: 'mongodb://127.0.0.1:27017/unused' });

/** A 6-digit code that is not the secret's code anywhere near now. */
async function wrongCode(secret: string) {
  const near = await Promise.all([-30, 0, 30].map((offset) => codeAt(secret, offset)));
  return ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
}

const signIn = (server: typeof app, username: string, fields: Record<string, string> = {}) =>
  request(server)
    .post('/api/admin/login')
    .send({ username, password: OPERATOR_PASSWORD, ...fields });
const turnOff = (server: typeof app, token: string, totp: string) =>
  request(server).delete('/api/admin/accounts/me/totp').set('Authorization', `Bearer ${token}`).send({ totp });

/** An operator who has enrolled with a first code (now's step): the secret their app holds and the recovery codes they were shown. */
async function enrolled(server: typeof app, permissions: string[] = ['users:read']) {
  const operator = await createOperator(permissions);
  const api = consoleApi(server, operator.token);
  const started = await api.post('/accounts/me/totp');
  expect(started.status).toBe(200);
  const secret = started.body.secret as string;
  const confirmed = await api.put('/accounts/me/totp', { totp: await codeAt(secret) });
  expect(confirmed.status).toBe(200);
  return { ...operator, api, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

describe('enrolling in two-step sign-in', () => {
  it('offers a secret with its otpauth address and QR code, and turns on only with a right code of that secret', async () => {
    const { account, token } = await createOperator(['users:read']);
    const api = consoleApi(app, token);
    expect((await api.get('/accounts/me/totp')).body).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const started = await api.post('/accounts/me/totp');
    expect(started.status).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = started.body as { secret: string; otpauthUrl: string; qrDataUrl: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Gift%20Rewards%20console:${account.username}?secret=${secret}&issuer=Gift%20Rewards%20console`);
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    // kept waiting, encrypted: the secret itself is not in the database
    const stored = await AccountModel.findById(account._id).select('+totpPendingSecret +totpSecret').lean();
    expect(stored!.totpPendingSecret).toEqual(expect.any(String));
    expect(stored!.totpPendingSecret).not.toContain(secret);
    expect(stored!.totpEnabled).toBe(false);

    const wrong = await api.put('/accounts/me/totp', { totp: await wrongCode(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ totp: 'This code is not valid or was already used' });
    expect((await AccountModel.findById(account._id).lean())!.totpEnabled).toBe(false);

    const confirmed = await api.put('/accounts/me/totp', { totp: await codeAt(secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.enabled).toBe(true);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);

    // after confirmation the secret is never sent again, and the recovery codes are kept only as hashes
    const status = await api.get('/accounts/me/totp');
    expect(status.body).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    const listed = await consoleApi(app, (await createOperator(['accounts:read'])).token).get(`/accounts/${String(account._id)}`);
    expect(listed.body.totpEnabled).toBe(true);
    for (const answer of [status, listed]) expect(JSON.stringify(answer.body)).not.toContain(secret);
    const after = await AccountModel.findById(account._id).select('+totpSecret +totpRecoveryCodes +totpPendingSecret').lean();
    expect(after!.totpPendingSecret).toBeNull();
    expect(after!.totpSecret).not.toContain(secret);
    expect(after!.totpRecoveryCodes.join()).not.toContain((confirmed.body.recoveryCodes as string[])[0]!.replace('-', ''));
    // a second enrolment cannot replace the secret while it is on
    expect((await api.post('/accounts/me/totp')).status).toBe(400);

    const notes = (await AuditEntryModel.find({ record: String(account._id) }).lean()).map((entry) => entry.note);
    expect(notes).toEqual(expect.arrayContaining(['two-step sign-in enrolment started', 'two-step sign-in turned on']));
  });
});

describe('signing in with two-step sign-in on', () => {
  it('asks for a code after the right password, and takes each code and each recovery code once', async () => {
    const { account, secret, recoveryCodes } = await enrolled(app);
    const asked = await signIn(app, account.username);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ totpRequired: true });

    // the code that confirmed the enrolment was used there
    const reused = await signIn(app, account.username, { totp: await codeAt(secret) });
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({ code: 'TOTP_INVALID', message: 'This sign-in code is not valid or was already used' });
    expect(reused.body.token).toBeUndefined();
    expect((await signIn(app, account.username, { totp: await wrongCode(secret) })).status).toBe(401);

    const next = await codeAt(secret, 30);
    const first = await signIn(app, account.username, { totp: next });
    expect(first.status).toBe(200);
    expect(first.body.token).toEqual(expect.any(String));
    expect((await request(app).get('/api/admin/me').set('Authorization', `Bearer ${first.body.token}`)).status).toBe(200);
    // the same code again, still inside its 30 seconds
    expect((await signIn(app, account.username, { totp: next })).status).toBe(401);

    const recovery = recoveryCodes[3]!;
    const rescued = await signIn(app, account.username, { totp: recovery.toUpperCase() });
    expect(rescued.status).toBe(200);
    expect(rescued.body.token).toEqual(expect.any(String));
    expect((await signIn(app, account.username, { totp: recovery })).status).toBe(401);
    expect((await consoleApi(app, rescued.body.token).get('/accounts/me/totp')).body.recoveryCodesLeft).toBe(9);
    expect(await AuditEntryModel.exists({ record: String(account._id), note: 'recovery code used to sign in' })).toBeTruthy();
  });

  it('counts wrong codes toward the sign-in lockout', async () => {
    const { account, secret } = await enrolled(appFor());
    const server = appFor();
    const wrong = await wrongCode(secret);
    for (let i = 0; i < 10; i++) expect((await signIn(server, account.username, { totp: wrong })).status).toBe(401);
    const blocked = await signIn(server, account.username, { totp: await codeAt(secret, 30) });
    expect(blocked.status).toBe(429);
  });

  it('is turned off by its operator with a current code, not with a wrong one', async () => {
    const { account, token, secret } = await enrolled(app);
    const refused = await turnOff(app, token, await wrongCode(secret));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ totp: 'This code is not valid or was already used' });
    expect((await signIn(app, account.username)).body).toEqual({ totpRequired: true });

    expect((await turnOff(app, token, await codeAt(secret, 30))).status).toBe(200);
    const plain = await signIn(app, account.username);
    expect(plain.body.token).toEqual(expect.any(String));
    const stored = await AccountModel.findById(account._id).select('+totpSecret +totpRecoveryCodes').lean();
    expect(stored).toMatchObject({ totpEnabled: false, totpSecret: null, totpRecoveryCodes: [] });
    expect(await AuditEntryModel.exists({ record: String(account._id), note: 'two-step sign-in turned off' })).toBeTruthy();
  });
});

describe('money in production', () => {
  async function giftSetting(server: typeof app) {
    const player = await createPlayer();
    const coin = await createCoin({ symbol: 'GIFT', giftApprovalAbove: '100' });
    let n = 0;
    const balance = () => balanceOf(player._id, coin._id);
    const give = (token: string) =>
      consoleApi(server, token).post(`/users/${String(player._id)}/adjustments`, {
        coin: String(coin._id),
        amount: '5',
        direction: 'credit',
        note: 'Thanks for the bug report',
        idempotencyKey: `totp-gift-${Date.now()}-${++n}`,
      });
    return { give, balance };
  }

  it('is refused to an account with gifts until it enrols; it still signs in, reads and enrols', async () => {
    const { give, balance } = await giftSetting(production);
    const { account, token } = await createOperator(['gifts:write', 'users:read']);
    const api = consoleApi(production, token);
    expect((await api.get('/accounts/me/totp')).body).toMatchObject({ enabled: false, required: true });

    const refused = await give(token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'TOTP_ENROLMENT_REQUIRED',
      message: 'Turn on two-step sign-in on your account page (My account) before moving money',
    });
    expect(await balance()).toBe(0n);
    expect((await api.get('/gifts')).status).toBe(200);
    const session = await signIn(production, account.username);
    expect(session.body.token).toEqual(expect.any(String));

    const { secret } = (await api.post('/accounts/me/totp')).body as { secret: string };
    expect((await api.put('/accounts/me/totp', { totp: await codeAt(secret) })).status).toBe(200);
    expect((await api.get('/accounts/me/totp')).body).toMatchObject({ enabled: true, required: false });
    const given = await give(token);
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({ applied: true });
    expect(await balance()).toBe(toMicros('5'));
  });

  it('is not gated for an account without a money permission, nor anywhere outside production', async () => {
    const reader = await createOperator(['users:write']);
    expect((await consoleApi(production, reader.token).get('/accounts/me/totp')).body.required).toBe(false);

    const { give, balance } = await giftSetting(app);
    const { token } = await createOperator(['gifts:write']);
    expect((await consoleApi(app, token).get('/accounts/me/totp')).body).toMatchObject({ enabled: false, required: false });
    expect((await give(token)).status).toBe(201);
    expect(await balance()).toBe(toMicros('5'));
  });
});
