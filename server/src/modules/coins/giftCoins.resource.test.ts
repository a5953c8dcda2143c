import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { getAppConfig } from '../config/config.service';
import { CategoryModel } from '../content/content.models';
import { MissionModel } from '../missions/mission.models';
import { StakingCoinModel } from '../staking/staking.models';
import { GiftCoinModel } from './giftCoin.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('gift coins in the console', () => {
  let api: ReturnType<typeof consoleApi>;
  beforeAll(async () => {
    api = consoleApi(app, (await createOperator(['gift-coins:write'])).token);
  });

  it('refuses to delete a coin that players hold or missions pay in, saying what uses it', async () => {
    const coin = await createCoin();
    await fund((await createPlayer())._id, coin._id, '1');
    const category = await CategoryModel.create({ title: 'Any' });
    await MissionModel.create({ category: category._id, coin: coin._id, title: 'Pays in it', reward: 1, verifyType: 'auto' });
    const res = await api.delete(`/gift-coins/${coin._id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Cannot delete: it is still used by 1 balance and 1 mission', code: 'IN_USE' });
    expect(await GiftCoinModel.exists({ _id: coin._id })).toBeTruthy();
  });

  it('refuses to delete the coin of a staking offer or of App Config, and deletes an unused one', async () => {
    const staked = await createCoin();
    await StakingCoinModel.create({ coin: staked._id, minAmount: 1, maxAmount: 2, profits: { week: '1' } });
    expect((await api.delete(`/gift-coins/${staked._id}`)).body.message).toBe('Cannot delete: it is still used by 1 staking coin');
    const mined = await createCoin();
    const config = await getAppConfig();
    config.set({ miningCoin: mined._id });
    await config.save();
    expect((await api.delete(`/gift-coins/${mined._id}`)).body.message).toBe(
      'Cannot delete: it is still used by the App Config (referrer or mining coin)',
    );

    const unused = await createCoin();
    expect((await api.delete(`/gift-coins/${unused._id}`)).status).toBe(200);
    expect(await GiftCoinModel.exists({ _id: unused._id })).toBeNull();
  });

  it('searches name and symbol, filters network and withdrawals, sorts by symbol', async () => {
    await api.post('/gift-coins', { name: 'Pearl Dollar', symbol: 'PRLD', network: 'ton', withdrawEnabled: true });
    await api.post('/gift-coins', {
      name: 'Pearl Jetton',
      symbol: 'PRLJ',
      network: 'jetton',
      jettonMaster: `0:${'a'.repeat(64)}`,
      withdrawEnabled: true,
    });
    await api.post('/gift-coins', { name: 'Other', symbol: 'PRLX', network: 'jetton' });
    const symbols = (res: { body: Array<{ symbol: string }> }) => res.body.map((c) => c.symbol);
    expect(symbols(await api.get('/gift-coins', { filter: { q: 'prl' }, sort: ['symbol', 'DESC'] }))).toEqual(['PRLX', 'PRLJ', 'PRLD']);
    expect(symbols(await api.get('/gift-coins', { filter: { q: 'pearl', network: 'jetton' } }))).toEqual(['PRLJ']);
    expect(symbols(await api.get('/gift-coins', { filter: { q: 'prl', withdrawEnabled: false } }))).toEqual(['PRLX']);
  });

  it('needs a jetton master address before a jetton can be withdrawn', async () => {
    const before = await GiftCoinModel.countDocuments();
    const res = await api.post('/gift-coins', { name: 'No master', symbol: 'NOM', network: 'jetton', withdrawEnabled: true });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ jettonMaster: 'A jetton needs its master address before withdrawals can be enabled' });
    expect(await GiftCoinModel.countDocuments()).toBe(before);
  });
});
