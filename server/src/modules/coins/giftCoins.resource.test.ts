import { Types } from 'mongoose';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { operatorConsole } from '../../../test/operators';
import { getAppConfig } from '../config/config.service';
import { CategoryModel } from '../content/content.models';
import { MissionModel } from '../missions/mission.models';
import { StakingCoinModel } from '../staking/staking.models';
import { CoinKeyModel, GiftCoinModel } from './giftCoin.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('gift coins in the console', () => {
  const api = operatorConsole(app, ['gift-coins:write']);

  it('refuses to delete a coin that players hold or missions pay in, saying what uses it', async () => {
    const coin = await createCoin();
    await fund((await createPlayer())._id, coin._id, '1');
    const category = await CategoryModel.create({ title: 'Any' });
    await MissionModel.create({ category: category._id, coin: coin._id, title: 'Pays in it', reward: 1, verifyType: 'auto' });
    const res = await api.delete(`/gift-coins/${coin._id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: 'Cannot delete: it is still used by 1 balance and 1 mission',
      code: 'IN_USE',
      params: { uses: '1 balance and 1 mission' },
    });
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
      'Cannot delete: it is still used by the App Config (referrer, mining or streak milestone coin)',
    );
    // a streak milestone's coin too: the milestone would otherwise pay in a coin that is gone
    const bonus = await createCoin();
    config.set({ streakMilestones: [{ days: 3, coin: bonus._id, amount: 1_000_000 }] });
    await config.save();
    expect((await api.delete(`/gift-coins/${bonus._id}`)).status).toBe(409);
    expect(await GiftCoinModel.exists({ _id: bonus._id })).not.toBeNull();

    const unused = await createCoin();
    expect((await api.delete(`/gift-coins/${unused._id}`)).status).toBe(200);
    expect(await GiftCoinModel.exists({ _id: unused._id })).toBeNull();
    // a coin saved a moment ago and deleted at once: its symbol is free again at once
    const saved = await api.post('/gift-coins', { name: 'Short lived', symbol: 'BRIEF', network: 'jetton' });
    expect((await api.delete(`/gift-coins/${saved.body.id}`)).status).toBe(200);
    expect((await api.post('/gift-coins', { name: 'Brief again', symbol: 'BRIEF', network: 'jetton' })).status).toBe(201);
  });

  it('keeps coins apart: a symbol whatever its case, one native TON, a jetton master once and valid, each refused by its field', async () => {
    await GiftCoinModel.deleteMany({});
    const master = 'EQBynBO23ywHy_CgarY9NK9FTz0yDsG82PtcbSTQgGoXwiuA';
    expect((await api.post('/gift-coins', { name: 'Gift Coin', symbol: 'GIFT', network: 'jetton', jettonMaster: master })).status).toBe(
      201,
    );
    expect((await api.post('/gift-coins', { name: 'Toncoin', symbol: 'TON', network: 'ton' })).status).toBe(201);

    const again = await api.post('/gift-coins', { name: 'Gift again', symbol: 'gift', network: 'jetton' });
    expect([again.status, again.body.errors]).toEqual([
      400,
      { symbol: 'Gift Coin already has the symbol GIFT: symbols are compared without case' },
    ]);
    const secondTon = await api.post('/gift-coins', { name: 'Toncoin 2', symbol: 'TON2', network: 'ton' });
    expect(secondTon.body.errors).toEqual({ network: 'Toncoin is already the native TON coin: there is one' });
    // the same master in its raw form is the same jetton
    const raw = `0:${Buffer.from('72 9c 13 b6 df 2c 07 cb f0 a0 6a b6 3d 34 af 45 4f 3d 32 0e c1 bc d8 fb 5c 6d 24 d0 80 6a 17 c2'.split(' ').map((h) => parseInt(h, 16))).toString('hex')}`;
    const sameMaster = await api.post('/gift-coins', { name: 'Copy', symbol: 'CPY', network: 'jetton', jettonMaster: raw });
    expect(sameMaster.body.errors).toEqual({ jettonMaster: 'Gift Coin already has this jetton master' });
    const badChecksum = await api.post('/gift-coins', {
      name: 'Bad',
      symbol: 'BAD',
      network: 'jetton',
      jettonMaster: `${master.slice(0, -1)}B`,
    });
    expect(badChecksum.body.errors).toEqual({ jettonMaster: 'This is not a valid TON address: check it in a blockchain explorer' });
    expect(await GiftCoinModel.countDocuments()).toBe(2);

    // an edit keeps its own symbol, and may not take another's
    const gift = await GiftCoinModel.findOne({ symbol: 'GIFT' }).lean();
    const kept = await api.put(`/gift-coins/${gift!._id}`, { name: 'Gift Coin', symbol: 'Gift', network: 'jetton', jettonMaster: master });
    expect(kept.status).toBe(200);
    const taken = await api.put(`/gift-coins/${gift!._id}`, { name: 'Gift Coin', symbol: 'ton', network: 'jetton', jettonMaster: master });
    expect(taken.body.errors).toEqual({ symbol: 'Toncoin already has the symbol TON: symbols are compared without case' });
  });

  it('keeps a Persian name beside the English one, refusing one too long on its field', async () => {
    const saved = await api.post('/gift-coins', { name: 'Bonus Coin', fa: { name: 'سکهٔ جایزه' }, symbol: 'BONUSFA' });
    expect([saved.status, saved.body.fa]).toEqual([201, { name: 'سکهٔ جایزه' }]);
    const tooLong = await api.put(`/gift-coins/${saved.body.id}`, { ...saved.body, fa: { name: 'س'.repeat(61) } });
    expect([tooLong.status, Object.keys(tooLong.body.errors)]).toEqual([400, ['fa.name']]);
  });

  it('lets one of 30 simultaneous saves of a symbol through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.post('/gift-coins', { name: `Race ${i}`, symbol: i % 2 ? 'RACE' : 'race', network: 'jetton' }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
    expect(
      answers
        .filter((res) => res.status !== 201)
        .every((res) => res.status === 400 && /already has the symbol|was just saved/.test(res.body.errors.symbol)),
    ).toBe(true);
    expect(await GiftCoinModel.countDocuments({ symbol: { $in: ['RACE', 'race'] } })).toBe(1);
  });

  it('takes over a hold a killed save left behind, or one its coin gave up, and lets an edit free its old symbol', async () => {
    // a save killed between holding the symbol and writing its coin, a minute ago (a newer one may still be writing it)
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await CoinKeyModel.collection.insertOne({
      key: 'symbol:GHOST',
      coin: new Types.ObjectId(),
      createdAt: aMinuteAgo,
      updatedAt: aMinuteAgo,
    });
    await CoinKeyModel.create({ key: 'symbol:WRITING', coin: new Types.ObjectId() });
    const writing = await api.post('/gift-coins', { name: 'Writing', symbol: 'WRITING', network: 'jetton' });
    expect([writing.status, writing.body.errors]).toEqual([400, { symbol: 'Another coin was just saved with this: look again' }]);
    expect((await api.post('/gift-coins', { name: 'Ghost', symbol: 'GHOST', network: 'jetton' })).status).toBe(201);
    // an edit killed before it let go of the old symbol: the coin no longer has it, so it is free
    const renamed = await api.post('/gift-coins', { name: 'Old name', symbol: 'OLDS', network: 'jetton' });
    await GiftCoinModel.updateOne({ _id: renamed.body.id }, { $set: { symbol: 'NEWS' } });
    expect((await api.post('/gift-coins', { name: 'Takes it', symbol: 'olds', network: 'jetton' })).status).toBe(201);
    // an edit lets go of what it no longer has
    const moving = await api.post('/gift-coins', { name: 'Moving', symbol: 'MOVA', network: 'jetton' });
    await api.put(`/gift-coins/${moving.body.id}`, { name: 'Moving', symbol: 'MOVB', network: 'jetton' });
    expect(await CoinKeyModel.countDocuments({ coin: moving.body.id })).toBe(1);
    expect((await api.post('/gift-coins', { name: 'After', symbol: 'MOVA', network: 'jetton' })).status).toBe(201);
  });

  it('searches name and symbol, filters network and withdrawals, sorts by symbol', async () => {
    // the one native TON coin there may be is this test's
    const tonCoins = await GiftCoinModel.find({ network: 'ton' }, { _id: 1 }).lean();
    await GiftCoinModel.deleteMany({ network: 'ton' });
    // as the console's delete does: their symbols and the place on TON are free again
    await CoinKeyModel.deleteMany({ coin: { $in: tonCoins.map((coin) => coin._id) } });
    await api.post('/gift-coins', { name: 'Pearl Dollar', symbol: 'PRLD', network: 'ton', withdrawEnabled: true });
    await api.post('/gift-coins', {
      name: 'Pearl Jetton',
      symbol: 'PRLJ',
      network: 'jetton',
      jettonMaster: `0:${'a'.repeat(64)}`,
      withdrawEnabled: true,
    });
    await api.post('/gift-coins', { name: 'Other', symbol: 'PRLX', network: 'jetton' });
    // turning withdrawals on waits for a second operator: here they are on, as after their approval
    await GiftCoinModel.updateMany({ symbol: { $in: ['PRLD', 'PRLJ'] } }, { $set: { withdrawEnabled: true } });
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
