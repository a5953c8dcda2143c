import mongoose from 'mongoose';
import { toMicros } from '@gift/shared';
import { MissionModel } from '../missions/mission.models';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { CategoryModel, CoverModel, PartnerModel } from '../content/content.models';
import { AppConfigModel } from '../config/appConfig.model';
import { getAppConfig } from '../config/config.service';
import { StakingCoinModel } from '../staking/staking.models';
import { usdValue } from './home.service';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';

async function createMission(fields: Record<string, unknown>) {
  const mission = new MissionModel();
  mission.set({ title: 'Mission', reward: '1', verifyType: 'auto', link: 'https://example.com', ...fields });
  return mission.save();
}

/** Counts the operations mongoose sends to the database while `run` runs. */
async function countDatabaseCalls(run: () => Promise<unknown>): Promise<string[]> {
  const calls: string[] = [];
  mongoose.set('debug', (collection: string, method: string) => void calls.push(`${collection}.${method}`));
  try {
    await run();
  } finally {
    mongoose.set('debug', false);
  }
  return calls;
}

describe('home.get', () => {
  it('shows covers, partners, categories with progress, and the ⭐ missions still to do', async () => {
    const coin = await createCoin({ symbol: 'GIFT' });
    await CoverModel.create([
      { title: 'Second', image: 'https://img.example/2.png', order: 2 },
      { title: 'First', image: 'https://img.example/1.png', order: 1, link: 'https://example.com/promo' },
      { title: 'Hidden', image: 'https://img.example/3.png', enabled: false },
    ]);
    await PartnerModel.create([
      { name: 'Partner', image: 'https://img.example/p.png' },
      { name: 'Gone', image: 'https://img.example/g.png', enabled: false },
    ]);
    const [social, videos] = await CategoryModel.create([
      { title: 'Social', order: 1 },
      { title: 'Videos', order: 2 },
    ]);
    await CategoryModel.create({ title: 'Retired', enabled: false });
    const starDone = await createMission({ category: social!._id, coin: coin._id, mustDone: true, title: 'Join', order: 1 });
    await createMission({
      category: social!._id,
      coin: coin._id,
      mustDone: true,
      title: 'Follow',
      order: 2,
      verifyType: 'youtube',
      secretCode: 'hush-hush',
    });
    await createMission({ category: social!._id, coin: coin._id, mustDone: true, title: 'Old star', enabled: false });
    await createMission({ category: videos!._id, coin: coin._id, title: 'Watch' });
    const player = await createPlayer();
    const caller = playerCaller(player);
    await caller.missions.claim({ missionId: String(starDone._id) });

    const home = await caller.home.get();

    expect(home.covers.map((c) => c.title)).toEqual(['First', 'Second']);
    expect(home.covers[0]).toEqual(expect.objectContaining({ image: 'https://img.example/1.png', link: 'https://example.com/promo' }));
    expect(home.partners.map((p) => p.name)).toEqual(['Partner']);
    expect(home.categories).toEqual([
      expect.objectContaining({ id: String(social!._id), title: 'Social', missionsTotal: 2, missionsDone: 1 }),
      expect.objectContaining({ id: String(videos!._id), title: 'Videos', missionsTotal: 1, missionsDone: 0 }),
    ]);
    expect(home.starMissions).toEqual([
      expect.objectContaining({
        title: 'Follow',
        status: 'not_started',
        mustDone: true,
        reward: '1',
        coin: { id: String(coin._id), symbol: 'GIFT' },
      }),
    ]);
    expect(JSON.stringify(home)).not.toMatch(/hush-hush|secretCode/);
  });

  it('reads the database with three queries, sent together, while the App Config copy lives', async () => {
    const caller = playerCaller(await createPlayer());
    await caller.home.get();
    const calls = await countDatabaseCalls(() => caller.home.get());
    expect(calls.sort()).toEqual(['covers.aggregate', 'missions.aggregate', 'usermissions.find']);
  });

  it('shows an App Config change written in this instance at once, without waiting for the copy to end', async () => {
    const caller = playerCaller(await createPlayer());
    const before = await caller.home.get();
    expect(before.streak.next).toBeNull();
    const coin = await createCoin({ symbol: 'STRK' });
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { streakMilestones: [{ days: 1, coin: coin._id, amount: 5_000_000 }] } });
    expect((await caller.home.get()).streak.next).toEqual({ days: 1, amount: '5', symbol: 'STRK' });
  });
});

describe('home.currency', () => {
  it('lists every enabled coin with the balance and its exact value in dollars', async () => {
    await GiftCoinModel.updateMany({}, { $set: { enabled: false } });
    const priced = await createCoin({ symbol: 'TON', usdPrice: '2.5', order: 1 });
    const unpriced = await createCoin({ symbol: 'PTS', order: 2 });
    await createCoin({ symbol: 'OFF', enabled: false });
    const player = await createPlayer();
    await fund(player._id, priced._id, '123456.789');

    expect(await playerCaller(player).home.currency()).toEqual([
      expect.objectContaining({ id: String(priced._id), symbol: 'TON', usdPrice: '2.5', balance: '123456.789', value: '308641.97' }),
      expect.objectContaining({ id: String(unpriced._id), symbol: 'PTS', usdPrice: null, balance: '0', value: null }),
    ]);
  });

  it('shows what is locked in stakes beside the balance, and values the total', async () => {
    await GiftCoinModel.updateMany({}, { $set: { enabled: false } });
    const coin = await createCoin({ symbol: 'TON', usdPrice: '2', order: 1 });
    await StakingCoinModel.create({ coin: coin._id, minAmount: 1, maxAmount: 1e12, profits: { week: '10' } });
    const player = await createPlayer();
    await fund(player._id, coin._id, '1000');
    const caller = playerCaller(player);
    const offer = (await caller.staking.offers())[0]!;
    await caller.staking.stake({ stakingCoinId: offer.id, amount: '400.5', duration: 'week', idempotencyKey: 'currency-stake-1' });
    await caller.staking.stake({ stakingCoinId: offer.id, amount: '100', duration: 'week', idempotencyKey: 'currency-stake-2' });

    expect(await caller.home.currency()).toEqual([
      expect.objectContaining({ symbol: 'TON', balance: '499.5', staked: '500.5', total: '1000', value: '2000.00' }),
    ]);
    // another player's stakes are not theirs
    expect(await playerCaller(await createPlayer()).home.currency()).toEqual([
      expect.objectContaining({ symbol: 'TON', balance: '0', staked: '0', total: '0', value: '0.00' }),
    ]);
  });
});

describe('usdValue', () => {
  it('rounds half up to the cent without floating point', () => {
    expect(usdValue(toMicros('1.5'), '0.333')).toBe('0.50');
    expect(usdValue(toMicros('1'), '0.004999')).toBe('0.00');
    expect(usdValue(toMicros('1'), '0.005')).toBe('0.01');
    expect(usdValue(toMicros('0.1'), '0.3')).toBe('0.03');
    expect(usdValue(0n, '65000')).toBe('0.00');
  });

  it('stays exact where floating point would not', () => {
    // as a double 1.005 is 1.00499999…, which would round down to 1.00
    expect(usdValue(toMicros('1.005'), '1')).toBe('1.01');
    // more digits than a double holds
    expect(usdValue(9_007_199_254_740_993n, '1000.000001')).toBe('9007199263748.19');
  });
});

describe("what operators wrote, in the player's language", () => {
  it('gives a Persian player the Persian mission, category, cover and partner texts, and the English where none is written', async () => {
    await Promise.all([CoverModel.deleteMany({}), PartnerModel.deleteMany({}), CategoryModel.deleteMany({}), MissionModel.deleteMany({})]);
    const coin = await createCoin({ symbol: 'GIFT' });
    await CoverModel.create({
      title: 'Welcome',
      fa: { title: 'خوش آمدید', image: '/demo/cover-welcome-fa.svg' },
      image: 'https://img.example/c.png',
    });
    await CoverModel.create({ title: 'Stake', image: 'https://img.example/s.png', order: 1 });
    await PartnerModel.create({ name: 'TON', image: 'https://img.example/p.png' });
    const category = await CategoryModel.create({ title: 'Social', description: 'Follow us', fa: { title: 'شبکه‌های اجتماعی' } });
    const mission = await createMission({
      category: category._id,
      coin: coin._id,
      mustDone: true,
      title: 'Join the channel',
      description: 'Our news, first',
      claimButton: 'Check',
      fa: { title: 'عضو کانال شوید', description: '', claimButton: 'بررسی' },
    });
    const persian = await createPlayer({ language: 'fa' });
    const english = await createPlayer({ language: 'en' });

    const home = await playerCaller(persian).home.get();
    // the Persian banner picture where one is set, the English one where none is
    expect(home.covers.map((c) => [c.title, c.image])).toEqual([
      ['خوش آمدید', '/demo/cover-welcome-fa.svg'],
      ['Stake', 'https://img.example/s.png'],
    ]);
    expect(home.partners.map((p) => p.name)).toEqual(['TON']);
    expect(home.categories.map((c) => [c.title, c.description])).toEqual([['شبکه‌های اجتماعی', 'Follow us']]);
    expect(home.starMissions.map((m) => [m.title, m.description, m.claimButton, m.goButton])).toEqual([
      // an untouched English default is the app's own Persian word
      ['عضو کانال شوید', 'Our news, first', 'بررسی', 'برو'],
    ]);
    const byCategory = await playerCaller(persian).missions.byCategory({ categoryId: String(category._id) });
    expect([byCategory.category.title, byCategory.missions[0]!.title]).toEqual(['شبکه‌های اجتماعی', 'عضو کانال شوید']);

    const inEnglish = await playerCaller(english).home.get();
    expect(inEnglish.covers[0]!.image).toBe('https://img.example/c.png');
    expect([inEnglish.covers[0]!.title, inEnglish.categories[0]!.title, inEnglish.starMissions[0]!.title]).toEqual([
      'Welcome',
      'Social',
      'Join the channel',
    ]);
    await MissionModel.updateOne({ _id: mission._id }, { $set: { mustDone: false } });
  });
});

describe("coin names and the invite message, in the player's language", () => {
  it('names a coin in Persian on Currency, Staking, Withdraw and the profile, and the invite carries the Persian message', async () => {
    const named = await createCoin({ symbol: 'NAMED', name: 'Gift Coin', fa: { name: 'سکهٔ هدیه' }, withdrawEnabled: true });
    await createCoin({ symbol: 'PLAIN', name: 'Plain Coin', withdrawEnabled: true });
    await StakingCoinModel.create({ coin: named._id, minAmount: 1, maxAmount: 1e12, profits: { week: '1' } });
    await getAppConfig();
    await AppConfigModel.updateOne(
      { key: 'app' },
      { $set: { botUsername: 'GiftRewardsBot', referrerMessage: 'Join me', fa: { referrerMessage: 'به من بپیوندید' } } },
    );
    const persian = await createPlayer({ language: 'fa' });
    const english = await createPlayer({ language: 'en' });
    const nameOf = (rows: Array<{ symbol?: string; name: string; coin?: unknown }>, symbol: string) =>
      rows.find((row) => row.symbol === symbol)?.name;

    const fa = playerCaller(persian);
    const currency = await fa.home.currency();
    expect([nameOf(currency, 'NAMED'), nameOf(currency, 'PLAIN')]).toEqual(['سکهٔ هدیه', 'Plain Coin']);
    expect((await fa.staking.offers()).find((o) => o.coin.symbol === 'NAMED')?.coin.name).toBe('سکهٔ هدیه');
    expect(nameOf(await fa.withdrawals.coins(), 'NAMED')).toBe('سکهٔ هدیه');
    expect(nameOf((await fa.user.me()).coins, 'NAMED')).toBe('سکهٔ هدیه');
    expect((await fa.referrals.summary()).shareText).toBe('به من بپیوندید');

    const en = playerCaller(english);
    expect(nameOf(await en.home.currency(), 'NAMED')).toBe('Gift Coin');
    expect((await en.referrals.summary()).shareText).toBe('Join me');
  });
});
