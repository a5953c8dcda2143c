import { randomBytes } from 'node:crypto';
import { createApp } from '../../app';
import { consoleToken } from './operatorSecurity.service';
import { createCoin, withdrawalOf } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { useTonTestChain } from '../../../test/tonChain';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { AccountModel } from './account.model';
import { AccountGrantModel } from './accountGrant.model';

jest.setTimeout(120_000);

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
useTonTestChain();

async function signedIn(id: string) {
  const account = (await AccountModel.findById(id).lean())!;
  return consoleApi(app, await consoleToken(account, testEnv().JWT_SECRET));
}

describe('four eyes are two people: a withdrawal above payoutApprovalAbove', () => {
  it('refuses the second approval from an account the first approver created and gave withdraws:write', async () => {
    const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1', payoutApprovalAbove: '12' });
    const { withdrawal } = await withdrawalOf(coin, '500');

    const attacker = await createOperator(['accounts:write', 'withdraws:write']);
    const api = consoleApi(app, attacker.token);
    const created = await api.post('/accounts', {
      username: `puppet_${randomBytes(3).toString('hex')}`,
      password: 'chosen by the attacker',
      permissions: ['withdraws:write'],
    });
    expect(created.body).toMatchObject({ permissions: [], pendingGrant: { permissions: ['withdraws:write'] } });
    const puppetId = String(created.body.id);

    // the first approval is the attacker's; the puppet, whose grant waits, holds no withdraws permission
    expect((await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' })).body).toMatchObject({ status: 'pending' });
    expect((await (await signedIn(puppetId)).put(`/withdraws/${withdrawal.id}`, { status: 'approved' })).status).toBe(403);

    // granted by an independent operator, it holds withdraws:write and still is not a second person
    const independent = consoleApi(app, (await createOperator(['*'])).token);
    const grant = await AccountGrantModel.findOne({ account: puppetId }).lean();
    await independent.post(`/account-grants/${String(grant!._id)}/approve`).expect(200);
    const refused = await (await signedIn(puppetId)).put(`/withdraws/${withdrawal.id}`, { status: 'approved' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('A second operator must approve this withdrawal: your account was created by the operator who asked');
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'pending', approvedBy: null });

    await independent.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'approved' });
  });
});
