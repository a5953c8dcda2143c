import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer } from '../../../test/factories';
import { operatorConsole } from '../../../test/operators';
import { StakeModel, StakingCoinModel } from './staking.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('staking coins in the console', () => {
  const api = operatorConsole(app, ['staking-coins:write']);

  it('stores exact amounts and profits, and filters by coin and enabled', async () => {
    const coin = await createCoin();
    const other = await createCoin();
    // the largest stake earns at most 979.98 (under the coin's 1,000 threshold): it is offered at once
    const created = await api.post('/staking-coins', {
      coin: String(coin._id),
      minAmount: '0.000001',
      maxAmount: '7999.83',
      profits: { week: '0.5', year: '12.25' },
      order: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      coin: String(coin._id),
      minAmount: '0.000001',
      maxAmount: '7999.83',
      enabled: true,
      profits: { week: '0.5', year: '12.25', month: '' },
    });
    expect((await StakingCoinModel.findById(created.body.id).lean())!.minAmount).toBe(1);
    await api.post('/staking-coins', { coin: String(other._id), minAmount: '1', maxAmount: '2', profits: { month: '1' }, enabled: false });
    const byCoin = await api.get('/staking-coins', { filter: { coin: String(coin._id) } });
    expect(byCoin.body.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    const disabled = await api.get('/staking-coins', { filter: { coin: [String(coin._id), String(other._id)], enabled: false } });
    expect(disabled.body).toHaveLength(1);
  });

  it('refuses a coin that does not exist, a maximum below the minimum and an offer with no duration', async () => {
    const coin = await createCoin();
    const before = await StakingCoinModel.countDocuments();
    const refused = async (changes: Record<string, unknown>) =>
      (
        await api
          .post('/staking-coins', { coin: String(coin._id), minAmount: '1', maxAmount: '2', profits: { week: '1' }, ...changes })
          .expect(400)
      ).body.errors;
    expect(await refused({ coin: '0123456789abcdef01234567' })).toEqual({ coin: 'Choose an existing gift coin' });
    expect(await refused({ minAmount: '5', maxAmount: '4.999999' })).toEqual({ maxAmount: 'The maximum must be at least the minimum' });
    expect(await refused({ profits: { week: '' } })).toEqual({ 'profits.week': 'Offer at least one duration' });
    expect(await refused({ maxAmount: '999999999999' })).toEqual({ maxAmount: 'Amount too large' });
    expect(await StakingCoinModel.countDocuments()).toBe(before);
  });

  it('deletes an unused offer, but refuses one that positions were staked under (disable it instead)', async () => {
    const coin = await createCoin();
    const offer = () => api.post('/staking-coins', { coin: String(coin._id), minAmount: '1', maxAmount: '10', profits: { week: '1' } });
    const unused = await offer();
    expect((await api.delete(`/staking-coins/${unused.body.id}`)).status).toBe(200);

    const used = await offer();
    const player = await createPlayer();
    const now = new Date();
    await StakeModel.create({
      user: player._id,
      stakingCoin: used.body.id,
      coin: coin._id,
      amount: 5_000_000,
      duration: 'week',
      profitPercent: '1',
      profit: 50_000,
      startedAt: now,
      unlocksAt: now,
      idempotencyKey: `k-${used.body.id}`,
    });
    const refused = await api.delete(`/staking-coins/${used.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Cannot delete: it is still used by 1 stake (disable it instead)');
    expect(await StakingCoinModel.exists({ _id: used.body.id })).not.toBeNull();
  });
});
