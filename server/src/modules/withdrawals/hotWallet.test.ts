import { Types } from 'mongoose';
import { createApp } from '../../app';
import { createCoin } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { HotWalletThresholdModel } from './hotWalletThreshold.model';
import { warningsOf } from './hotWalletWarnings';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('the hot wallet warnings', () => {
  const coin = (balance: string | null, warnBelow = '0') => ({ coin: 'ton', symbol: 'TON', balance, warnBelow });

  it('warns while pending payouts exceed the balance (150,000 owed against 99,999), and under the threshold, both at once', () => {
    expect(warningsOf([coin('99999', '100000')], [{ coin: 'ton', total: '150000' }])).toEqual([
      { coin: 'ton', symbol: 'TON', balance: '99999', threshold: '100000', pending: '150000', why: 'threshold' },
      { coin: 'ton', symbol: 'TON', balance: '99999', threshold: '100000', pending: '150000', why: 'pending' },
    ]);
  });

  it('counts exactly: owing what it holds, or a threshold of 0, or an unknown balance, is no warning', () => {
    expect(warningsOf([coin('5000.25', '0')], [{ coin: 'ton', total: '5000.25' }])).toEqual([]);
    expect(warningsOf([coin('100000.000000001', '100000')], [])).toEqual([]);
    expect(warningsOf([coin(null, '100000')], [{ coin: 'ton', total: '1' }])).toEqual([]);
    expect(warningsOf([coin('5000.25')], [{ coin: 'ton', total: '5000.250001' }]).map((w) => w.why)).toEqual(['pending']);
  });
});

describe('PUT /api/admin/treasury/threshold', () => {
  it('sets a coin threshold, audited; refuses a bad amount, an unknown coin or a reader, changing nothing', async () => {
    const ton = await createCoin({ symbol: 'TON', network: 'ton' });
    const treasurer = await createOperator(['withdraws:write']);
    const api = consoleApi(app, treasurer.token);

    const saved = await api.put('/treasury/threshold', { coin: ton.id, below: '2500.5' });
    expect(saved.status).toBe(200);
    expect(saved.body.coins.find((row: { symbol: string }) => row.symbol === 'TON')).toMatchObject({ warnBelow: '2500.5' });
    expect(await AuditEntryModel.findOne({ resource: 'treasury', record: 'threshold:TON' }).lean()).toMatchObject({
      username: treasurer.account.username,
      before: { warnBelow: '0' },
      after: { warnBelow: '2500.5' },
    });

    const refused = [
      await api.put('/treasury/threshold', { coin: ton.id, below: '-1' }),
      await api.put('/treasury/threshold', { coin: ton.id, below: '1.1234567' }),
      await api.put('/treasury/threshold', { coin: String(new Types.ObjectId()), below: '10' }),
      await consoleApi(app, (await createOperator(['withdraws:read'])).token).put('/treasury/threshold', { coin: ton.id, below: '10' }),
    ];
    expect(refused.map((res) => res.status)).toEqual([400, 400, 400, 403]);
    expect(refused[2]!.body.errors).toEqual({ coin: 'Unknown coin' });
    expect(await HotWalletThresholdModel.find({}).lean()).toMatchObject([{ below: 2_500_500_000 }]);
  });
});
