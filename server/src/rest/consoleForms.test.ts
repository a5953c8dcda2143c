import { createApp } from '../app';
import { silentLogger, testEnv } from '../../test/helpers';
import { createCoin, createPlayer } from '../../test/factories';
import { consoleApi, createOperator } from '../../test/operators';
import { CategoryModel, CoverModel } from '../modules/content/content.models';
import { GiftCoinModel } from '../modules/coins/giftCoin.model';
import { AppConfigModel } from '../modules/config/appConfig.model';
import { MissionModel } from '../modules/missions/mission.models';
import { WithdrawalModel } from '../modules/withdrawals/withdrawal.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

describe('what a console form sends, as operators found it', () => {
  let api: ReturnType<typeof consoleApi>;
  beforeAll(async () => {
    api = consoleApi(app, (await createOperator(['*'])).token);
  });

  it('saves a cover whose image is a path on this site', async () => {
    const cover = await CoverModel.create({ title: 'Invite friends', image: '/demo/cover-invite.svg' });
    const res = await api.put(`/covers/${cover._id}`, { ...cover.toJSON(), link: null }).expect(200);
    expect(res.body).toMatchObject({ image: '/demo/cover-invite.svg', link: '' });
  });

  it('clears optional fields sent as null: a coin price, a jetton master, the bot username', async () => {
    const coin = await createCoin({ usdPrice: '0.05', network: 'jetton', jettonMaster: `0:${'b'.repeat(64)}`, withdrawEnabled: false });
    const res = await api.put(`/gift-coins/${coin._id}`, { ...coin.toJSON(), usdPrice: null, jettonMaster: null, icon: null }).expect(200);
    expect(res.body).toMatchObject({ usdPrice: '', jettonMaster: '' });
    expect((await GiftCoinModel.findById(coin._id).lean())!.usdPrice).toBe('');
    await api.put('/app-config/current', { botUsername: 'GiftRewardsBot' }).expect(200);
    await api.put('/app-config/current', { botUsername: null, miniAppName: null, referrerMessage: null }).expect(200);
    expect((await AppConfigModel.findOne().lean())!.botUsername).toBe('');
  });

  it('still names the field of a bad optional value', async () => {
    const coin = await createCoin();
    const res = await api.put(`/gift-coins/${coin._id}`, { ...coin.toJSON(), usdPrice: 'cheap' }).expect(400);
    expect(res.body.errors).toEqual({ usdPrice: 'Enter an amount like 12 or 12.5 (at most 6 decimals)' });
  });

  it('names the nested staking profit that is wrong', async () => {
    const coin = await createCoin();
    for (const week of ['abc', '-5']) {
      const res = await api
        .post('/staking-coins', { coin: String(coin._id), minAmount: '1', maxAmount: '10', profits: { week, month: '3' } })
        .expect(400);
      expect(res.body.errors).toEqual({ 'profits.week': 'Enter a percent like 5 or 12.5' });
    }
  });

  it('refuses a reward of 0', async () => {
    const coin = await createCoin();
    const category = await CategoryModel.create({ title: 'Zero' });
    const res = await api
      .post('/missions', { category: String(category._id), coin: String(coin._id), title: 'Free', reward: '0', verifyType: 'auto' })
      .expect(400);
    expect(res.body.errors).toEqual({ reward: 'Must be more than 0' });
  });

  it('finds withdrawals by the player', async () => {
    const coin = await createCoin();
    const player = await createPlayer({ name: 'Zahra Karimi', username: 'zahra_k' });
    const withdrawal = await WithdrawalModel.create({
      user: player._id,
      coin: coin._id,
      amount: 1_000_000,
      address: 'UQz',
      idempotencyKey: 'find-me',
    });
    for (const q of ['zahra', 'Karimi', 'ZAHRA_K']) {
      const res = await api.get('/withdraws', { filter: { q } }).expect(200);
      expect(res.body.map((w: { id: string }) => w.id)).toEqual([String(withdrawal._id)]);
    }
  });
});

describe('reads a permission implies', () => {
  it('lets a missions-only account list categories and gift coins for its form and create a mission', async () => {
    const missions = consoleApi(app, (await createOperator(['missions:write'])).token);
    const coin = await createCoin();
    const category = await CategoryModel.create({ title: 'Socials' });
    expect((await missions.get('/categories')).status).toBe(200);
    expect((await missions.get(`/gift-coins/${coin._id}`)).status).toBe(200);
    expect((await missions.get('/gift-coins', { filter: { id: [String(coin._id)] } })).status).toBe(200);
    const created = await missions
      .post('/missions', { category: String(category._id), coin: String(coin._id), title: 'Follow us', reward: '3', verifyType: 'auto' })
      .expect(201);
    expect(await MissionModel.exists({ _id: created.body.id })).toBeTruthy();
  });

  it('never lets the implied read write, nor open other resources or a sub-page', async () => {
    const missions = consoleApi(app, (await createOperator(['missions:write'])).token);
    const coin = await createCoin();
    expect((await missions.put(`/gift-coins/${coin._id}`, { name: 'Hacked' })).status).toBe(403);
    expect((await missions.post('/categories', { title: 'Nope' })).status).toBe(403);
    expect((await missions.get('/users')).status).toBe(403);
    const reviewer = consoleApi(app, (await createOperator(['user-missions:read'])).token);
    const player = await createPlayer();
    expect((await reviewer.get(`/users/${player._id}`)).status).toBe(200);
    expect((await reviewer.get(`/users/${player._id}/ledger`)).status).toBe(403);
    expect((await reviewer.get('/ledger-entries')).status).toBe(403);
  });
});
