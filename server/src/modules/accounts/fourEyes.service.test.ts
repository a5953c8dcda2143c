import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { consoleToken } from './operatorSecurity.service';
import { createCoin, createPlayer } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { balanceOf } from '../ledger/ledger.service';
import { AccountModel } from './account.model';
import { AccountGrantModel } from './accountGrant.model';
import { askGrant, listGrantsOfOlderVersion, newPendingGrant } from './accountGrants.service';
import { OperationModel } from '../ledger/operation.model';
import { recoverPendingEntries } from '../ledger/ledger.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const name = (prefix: string) => `${prefix}_${randomBytes(3).toString('hex')}`;

/** A console client for an account as it is now (its current token version). */
async function signedIn(id: string) {
  const account = (await AccountModel.findById(id).lean())!;
  return consoleApi(app, await consoleToken(account, testEnv().JWT_SECRET));
}

/** An operator with accounts and gifts (an account older than the records: independent of everyone), and a second account it creates. */
/** An account `asker` created asking for `permissions`, which wait in a grant for an independent operator. */
async function grantAsked(asker: { token: string }, prefix: string, permissions: string[]) {
  const made = (await consoleApi(app, asker.token).post('/accounts', { username: name(prefix), password: 'a good password', permissions }))
    .body;
  return { made, grant: String((await AccountGrantModel.findOne({ account: made.id }).lean())!._id) };
}

async function attacker(permissions: string[]) {
  const own = await createOperator(permissions);
  const api = consoleApi(app, own.token);
  const created = await api.post('/accounts', { username: name('puppet'), password: 'chosen by the attacker', permissions });
  expect(created.status).toBe(201);
  return { own, api, puppetId: String(created.body.id), created: created.body };
}

afterEach(() => onFault(null));

describe('four eyes are two people: a gift', () => {
  it('refuses an operator approving their own 50,000 gift with an account they created and gave gifts', async () => {
    const { own, api, puppetId, created } = await attacker(['accounts:write', 'gifts:write']);
    // the account exists with what moves no money; gifts:write waits for a second operator
    expect(created).toMatchObject({ permissions: [], createdBy: own.id, pendingGrant: { permissions: ['accounts:write', 'gifts:write'] } });
    const coin = await createCoin({ symbol: 'GIFT', giftApprovalAbove: '1000' });
    const player = await createPlayer();
    const asked = await api.post(`/users/${String(player._id)}/adjustments`, {
      coin: String(coin._id),
      amount: '50000',
      direction: 'credit',
      note: 'Prize',
      idempotencyKey: name('gift'),
    });
    expect(asked.status).toBe(202);
    const gift = String(asked.body.approvalId);

    // while the grant waits the account holds no gifts permission
    const puppet = await signedIn(puppetId);
    expect((await puppet.post(`/gifts/${gift}/approve`)).status).toBe(403);
    // the attacker cannot approve the grant either
    const grantId = String(created.pendingGrant.id ?? created.pendingGrant._id);
    const self = await api.post(`/account-grants/${grantId}/approve`);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('A second operator must approve this access: you asked for it');

    // an independent operator approves the grant: now the account holds gifts:write, and still may not approve
    const independent = await createOperator(['*']);
    expect((await consoleApi(app, independent.token).post(`/account-grants/${grantId}/approve`)).status).toBe(200);
    const puppetNow = await signedIn(puppetId);
    expect((await puppetNow.get('/gifts')).status).toBe(200);
    const refused = await puppetNow.post(`/gifts/${gift}/approve`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('A second operator must approve this gift: your account was created by the operator who asked');
    expect(await balanceOf(player._id, coin._id)).toBe(0n);

    // a second person approves it
    expect((await consoleApi(app, independent.token).post(`/gifts/${gift}/approve`)).status).toBe(200);
    expect(await balanceOf(player._id, coin._id)).toBe(50_000_000_000n);
  });

  it('refuses an approver whose money permission the requester gave, or whose password the requester set', async () => {
    const coin = await createCoin({ giftApprovalAbove: '10' });
    const player = await createPlayer();
    const asker = await createOperator(['*']);
    const askerApi = consoleApi(app, asker.token);
    const ask = async () =>
      String(
        (
          await askerApi.post(`/users/${String(player._id)}/adjustments`, {
            coin: String(coin._id),
            amount: '500',
            direction: 'credit',
            note: 'Prize',
            idempotencyKey: name('gift'),
          })
        ).body.approvalId,
      );

    // an account older than the records, given gifts by the asker (approved by someone else): not independent of the asker
    const helper = await createOperator(['users:read']);
    const record = (await askerApi.get(`/accounts/${helper.id}`)).body;
    await askerApi.put(`/accounts/${helper.id}`, { ...record, permissions: ['users:read', 'gifts:write'] }).expect(200);
    const grant = await AccountGrantModel.findOne({ account: helper.id, status: 'pending' }).lean();
    const other = await createOperator(['*']);
    await consoleApi(app, other.token)
      .post(`/account-grants/${String(grant!._id)}/approve`)
      .expect(200);
    const firstGift = await ask();
    const byGrant = await (await signedIn(helper.id)).post(`/gifts/${firstGift}/approve`);
    expect(byGrant.status).toBe(403);
    expect(byGrant.body.message).toBe('A second operator must approve this gift: the operator who asked gave your account gifts:write');

    // an independent account whose password the asker set: the asker could sign in as it
    const victim = await createOperator(['gifts:write']);
    const victimRecord = (await askerApi.get(`/accounts/${victim.id}`)).body;
    await askerApi.put(`/accounts/${victim.id}`, { ...victimRecord, password: 'the asker knows this one' }).expect(200);
    const byPassword = await (await signedIn(victim.id)).post(`/gifts/${await ask()}/approve`);
    expect(byPassword.status).toBe(403);
    expect(byPassword.body.message).toBe('A second operator must approve this gift: the operator who asked set your password');

    // the reverse: the approver set the asker's password
    const asker2 = await createOperator(['gifts:write']);
    await askerApi.put(`/accounts/${asker2.id}`, {
      ...(await askerApi.get(`/accounts/${asker2.id}`)).body,
      password: 'set by the approver',
    });
    const asked2 = await (
      await signedIn(asker2.id)
    ).post(`/users/${String(player._id)}/adjustments`, {
      coin: String(coin._id),
      amount: '500',
      direction: 'credit',
      note: 'Prize',
      idempotencyKey: name('gift'),
    });
    const reverse = await askerApi.post(`/gifts/${String(asked2.body.approvalId)}/approve`);
    expect(reverse.status).toBe(403);
    expect(reverse.body.message).toBe('A second operator must approve this gift: you set the password of the operator who asked');
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
  });
});

describe('money permissions wait for a second operator', () => {
  it('gives the rest at once, records who created the account and gave each permission, and lists what waits', async () => {
    const boss = await createOperator(['accounts:write', 'users:read', 'missions:write']);
    const api = consoleApi(app, boss.token);
    const made = await api.post('/accounts', {
      username: name('support'),
      password: 'a good password',
      permissions: ['users:read', 'missions:write'],
    });
    expect(made.status).toBe(201);
    const stored = (await AccountModel.findById(made.body.id).lean())!;
    expect(stored.permissions).toEqual(['users:read']);
    expect(String(stored.createdBy)).toBe(boss.id);
    expect(stored.grants.map((grant) => [grant.permission, String(grant.grantedBy), grant.approvedBy])).toEqual([
      ['users:read', boss.id, null],
    ]);
    const listed = await api.get('/account-grants', { filter: { status: 'pending', account: made.body.id } });
    expect(listed.body).toMatchObject([
      { username: made.body.username, permissions: ['missions:write'], requestedBy: boss.id, status: 'pending' },
    ]);
    // a second request while one waits is refused, and changes nothing
    const again = await api.put(`/accounts/${String(made.body.id)}`, {
      ...made.body,
      password: '',
      permissions: ['users:read', 'accounts:write'],
    });
    expect(again.status).toBe(400);
    expect((await AccountModel.findById(made.body.id).lean())!.pendingGrant!.permissions).toEqual(['missions:write']);
    // sending the waiting one again neither refuses nor asks twice
    await api
      .put(`/accounts/${String(made.body.id)}`, { ...made.body, password: '', permissions: ['users:read', 'missions:write'] })
      .expect(200);
    expect(await AccountGrantModel.countDocuments({ account: made.body.id })).toBe(1);
  });

  it('is approved only by an operator with accounts:write who holds the permission, is independent of the asker, and is not the account', async () => {
    const asker = await createOperator(['accounts:write', 'withdraws:write', 'users:read']);
    const { made, grant } = await grantAsked(asker, 'payer', ['withdraws:write']);
    const attempt = async (permissions: string[], fields: Record<string, unknown> = {}) =>
      (await consoleApi(app, (await createOperator(permissions, fields)).token).post(`/account-grants/${grant}/approve`)).status;
    expect(await attempt(['withdraws:write'])).toBe(403); // no accounts:write
    expect(await attempt(['accounts:write'])).toBe(403); // does not hold withdraws:write
    expect(await attempt(['accounts:write', 'withdraws:write'], { createdBy: asker.id })).toBe(403); // the asker's own
    expect((await (await signedIn(made.id)).post(`/account-grants/${grant}/approve`)).status).toBe(403); // the account itself
    expect((await AccountModel.findById(made.id).lean())!.permissions).toEqual([]);
    expect(await attempt(['accounts:write', 'withdraws:write'])).toBe(200);
    const after = (await AccountModel.findById(made.id).lean())!;
    expect(after.permissions).toEqual(['withdraws:write']);
    expect(after.pendingGrant).toBeNull();
    expect(after.grants).toHaveLength(1);
    expect(String(after.grants[0]!.grantedBy)).toBe(asker.id);
    // a decided request is decided
    expect(await attempt(['*'])).toBe(409);
  });

  it('is rejected with a reason, by the asker too, and the account keeps only what it held', async () => {
    const asker = await createOperator(['*']);
    const api = consoleApi(app, asker.token);
    const { made, grant } = await grantAsked(asker, 'nope', ['*']);
    expect((await api.post(`/account-grants/${grant}/reject`, {})).status).toBe(400);
    const rejected = await api.post(`/account-grants/${grant}/reject`, { rejectReason: 'Asked by mistake' });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectReason: 'Asked by mistake' });
    expect(await AccountModel.findById(made.id).lean()).toMatchObject({ permissions: [], pendingGrant: null });
    expect((await consoleApi(app, (await createOperator(['*'])).token).post(`/account-grants/${grant}/approve`)).status).toBe(409);
    expect(await AuditEntryModel.countDocuments({ key: `account-grant:${grant}` })).toBe(1);
    expect((await api.post('/account-grants/not-an-id/approve')).status).toBe(400);
  });

  it('gives the permissions once when twenty approvals race', async () => {
    const asker = await createOperator(['*']);
    const { made, grant } = await grantAsked(asker, 'race', ['gifts:write']);
    const approvers = await Promise.all([createOperator(['*']), createOperator(['*'])]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => consoleApi(app, approvers[i % 2]!.token).post(`/account-grants/${grant}/approve`)),
    );
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((answer) => [200, 409].includes(answer.status))).toBe(true);
    const after = (await AccountModel.findById(made.id).lean())!;
    expect(after.permissions).toEqual(['gifts:write']);
    expect(after.grants).toHaveLength(1);
    expect(after.tokenVersion).toBe(1);
    expect(await AuditEntryModel.countDocuments({ key: `account-grant:${grant}` })).toBe(1);
  });
});

describe('an account grant interrupted between any two writes', () => {
  /** What the approval left: the account's permissions and grant entries, the request's status, the audit records. */
  async function state(accountId: string, grantId: string) {
    const account = (await AccountModel.findById(accountId).lean())!;
    return {
      permissions: account.permissions,
      grants: account.grants.filter((grant) => String(grant.grant) === grantId).length,
      waiting: !!account.pendingGrant,
      status: (await AccountGrantModel.findById(grantId).lean())?.status,
      audits: await AuditEntryModel.countDocuments({ key: `account-grant:${grantId}` }),
    };
  }

  // the decision's operation (account-grant): after its admit took the decision, after the account's write, after the audit
  for (const [point, step] of [
    ['ledger:after-apply', undefined],
    ['ledger:after-step', 'account'],
    ['ledger:after-step', 'audit'],
  ] as const) {
    for (const finisher of ['retry', 'sweep'] as const) {
      it(`at ${point}${step ? `:${step}` : ''} of its decision, is given once by the ${finisher}, never lost`, async () => {
        const asker = await createOperator(['*']);
        const { made, grant } = await grantAsked(asker, 'crash', ['users:read', 'withdraws:write']);
        const approver = consoleApi(app, (await createOperator(['*'])).token);
        onFault((reached, kind, atStep) => {
          if (reached === point && kind === 'account-grant' && atStep === step) throw new Error(`crash at ${point}`);
        });
        expect((await approver.post(`/account-grants/${grant}/approve`)).status).toBe(500);
        onFault(null);
        const half = await state(made.id, grant);
        // applied or not, never half: the account's write is one
        expect([0, 1]).toContain(half.grants);
        expect(half.permissions.includes('withdraws:write')).toBe(half.grants === 1);
        expect(half.waiting).toBe(half.grants === 0);
        if (finisher === 'retry') expect((await approver.post(`/account-grants/${grant}/approve`)).status).toBe(200);
        else expect(await recoverPendingEntries(0)).toBeGreaterThanOrEqual(1);
        expect(await state(made.id, grant)).toEqual({
          permissions: ['users:read', 'withdraws:write'],
          grants: 1,
          waiting: false,
          status: 'applied',
          audits: 1,
        });
        // a second pass changes nothing
        await recoverPendingEntries(0);
        expect(await state(made.id, grant)).toMatchObject({ grants: 1, audits: 1, status: 'applied' });
      });
    }
  }

  // the ask's operation (account-grant-ask): after the account's write, after its admit found the request, after its listing
  for (const [point, step] of [
    ['ledger:after-record', undefined],
    ['ledger:after-apply', undefined],
    ['ledger:after-step', 'list'],
  ] as const) {
    for (const finisher of ['retry', 'sweep'] as const) {
      it(`at ${point}${step ? `:${step}` : ''} of its ask, is listed once by the ${finisher}, and given once approved`, async () => {
        const asker = await createOperator(['*']);
        const api = consoleApi(app, asker.token);
        const username = name('asked');
        const { id } = (await api.post('/accounts', { username, password: 'a good password', permissions: ['users:read'] })).body;
        const edit = () =>
          api.put(`/accounts/${id}`, { username, permissions: ['users:read', 'app-config:write'], enabled: true, password: '' });
        onFault((reached, kind, atStep) => {
          if (reached === point && kind === 'account-grant-ask' && atStep === step) throw new Error(`crash at ${point}`);
        });
        expect((await edit()).status).toBe(500);
        onFault(null);
        const account = (await AccountModel.findById(id).lean())!;
        expect([account.permissions, account.pendingGrant!.permissions]).toEqual([['users:read'], ['app-config:write']]);
        const grantId = String((account.pendingGrant as unknown as { _id: unknown })._id);
        const listed = async () => ({
          requests: (await AccountGrantModel.find({ account: id }).lean()).map((grant) => [String(grant._id), grant.status]),
          asked: await AuditEntryModel.countDocuments({ key: `account-grant-asked:${grantId}` }),
        });
        // listed only once its step ran
        expect((await listed()).asked).toBe(point === 'ledger:after-step' ? 1 : 0);
        // the operator saves the edit again (the same request, not a second one), or nobody does and the sweep alone finishes it
        if (finisher === 'retry') expect((await edit()).status).toBe(200);
        else await recoverPendingEntries(0);
        const once = { requests: [[grantId, 'pending']], asked: 1 };
        expect(await listed()).toEqual(once);
        await recoverPendingEntries(0);
        expect((await edit()).status).toBe(200);
        expect(await listed()).toEqual(once);
        expect(await OperationModel.countDocuments({ key: `account-grant-ask:${grantId}`, state: { $ne: 'done' } })).toBe(0);
        await consoleApi(app, (await createOperator(['*'])).token)
          .post(`/account-grants/${grantId}/approve`)
          .expect(200);
        expect((await AccountModel.findById(id).lean())!.permissions).toEqual(['users:read', 'app-config:write']);
      });
    }
  }

  it('a request an older version left unlisted is listed once, at the first pass after the upgrade', async () => {
    const asker = await createOperator(['*']);
    const pending = newPendingGrant(['gifts:write'], asker.id, new Date());
    // what the older version left: the account carries the request, killed before its record (and no operation of it)
    const username = name('older');
    const account = await AccountModel.create({ username, passwordHash: 'x', permissions: [], enabled: true, pendingGrant: pending });
    await mongoose.connection.collection('migrations').deleteMany({ name: 'account-grant-asked-unlisted' });
    await listGrantsOfOlderVersion();
    await listGrantsOfOlderVersion();
    expect(await AccountGrantModel.find({ account: account._id }).lean()).toMatchObject([
      { _id: pending._id, status: 'pending', permissions: ['gifts:write'], username },
    ]);
    expect(await AuditEntryModel.countDocuments({ key: `account-grant-asked:${String(pending._id)}`, account: asker.id })).toBe(1);
  });

  it('an ask whose account write never landed leaves nothing: the sweep removes its operation', async () => {
    const asker = await createOperator(['*']);
    const pending = newPendingGrant(['gifts:write'], asker.id, new Date());
    // recorded, then the process died before the account's write
    await askGrant(pending);
    const key = `account-grant-ask:${String(pending._id)}`;
    expect(await OperationModel.countDocuments({ key })).toBe(1);
    await recoverPendingEntries(0);
    expect(await OperationModel.countDocuments({ key })).toBe(0);
    expect(await AccountGrantModel.countDocuments({ _id: pending._id })).toBe(0);
  });

  it('finishes a rejection a crash interrupted: the account no longer waits, audited once', async () => {
    const asker = await createOperator(['*']);
    const api = consoleApi(app, asker.token);
    const { made, grant } = await grantAsked(asker, 'rej', ['missions:write']);
    // killed once its operation's admit took the rejection, before the account was cleared: the engine's sweep finishes it
    onFault((reached, kind) => {
      if (reached === 'ledger:after-apply' && kind === 'account-grant') throw new Error('crash');
    });
    expect((await api.post(`/account-grants/${grant}/reject`, { rejectReason: 'No' })).status).toBe(500);
    onFault(null);
    await recoverPendingEntries(0);
    expect(await AccountModel.findById(made.id).lean()).toMatchObject({ permissions: [], pendingGrant: null });
    expect(await AuditEntryModel.countDocuments({ key: `account-grant:${grant}` })).toBe(1);
  });
});
