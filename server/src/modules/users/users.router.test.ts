import request from 'supertest';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { tmaHeader } from '../../../test/telegram';
import { postEntry } from '../ledger/ledger.service';
import { UserModel } from './user.model';

const PROFILE_FIELDS = [
  'id',
  'telegramId',
  'name',
  'username',
  'language',
  'theme',
  'messagePermission',
  'isPremium',
  'photoUrl',
  'isDemo',
  'referralCode',
  'inviteLimit',
  'referrersCount',
  'missionsCount',
  'doneMissionsCount',
  'createdAt',
  'status',
  'statusReason',
  'coins',
].sort();

describe('user.me', () => {
  it("shows the player's profile and, per coin, balance and figures from the ledger", async () => {
    const [gold, silver, retired, unused] = await Promise.all([
      createCoin({ symbol: 'GOLD', order: 1 }),
      createCoin({ symbol: 'SLVR', order: 2 }),
      createCoin({ symbol: 'OLD', order: 3, enabled: false }),
      createCoin({ symbol: 'GONE', order: 4, enabled: false }),
    ]);
    const player = await createPlayer({ name: 'Mina', missionsCount: 4, doneMissionsCount: 3, referrersCount: 2, inviteLimit: 50 });
    const post = (
      coinId: unknown,
      amount: string,
      reason: 'mission' | 'referral' | 'mining' | 'withdraw' | 'refund',
      key: string,
      sign = 1n,
    ) => postEntry({ userId: player._id, coinId: String(coinId), amount: sign * toMicros(amount), reason, idempotencyKey: `me:${key}` });
    await post(gold._id, '10.5', 'mission', 'a');
    await post(gold._id, '2', 'referral', 'b');
    await post(gold._id, '0.000001', 'mining', 'c');
    await post(gold._id, '5', 'withdraw', 'd', -1n);
    await post(gold._id, '1', 'refund', 'e');
    await fund(player._id, gold._id, '3');
    await fund(player._id, retired._id, '7');

    const me = await playerCaller(player).user.me();
    expect(Object.keys(me).sort()).toEqual(PROFILE_FIELDS);
    expect(me).toMatchObject({
      id: player.id,
      name: 'Mina',
      missionsCount: 4,
      doneMissionsCount: 3,
      referrersCount: 2,
      inviteLimit: 50,
      isDemo: false,
    });
    expect(me.coins.map((c) => c.symbol)).toEqual(['GOLD', 'SLVR', 'OLD']);
    expect(me.coins[0]).toEqual({
      coinId: gold.id,
      symbol: 'GOLD',
      name: gold.name,
      icon: '',
      balance: '11.500001',
      rewards: '12.5',
      earned: '0.000001',
      withdrawn: '4',
      pendingWithdrawals: '0',
      gifts: '3',
    });
    expect(me.coins[1]).toMatchObject({ coinId: silver.id, balance: '0', rewards: '0', earned: '0', withdrawn: '0', gifts: '0' });
    expect(me.coins[2]).toMatchObject({ coinId: retired.id, balance: '7', gifts: '7' });
    expect(me.coins.some((c) => c.coinId === unused.id)).toBe(false);
  });

  it('refuses a caller who is not signed in, and tells a banned player why, in their language', async () => {
    await expect(playerCaller(null).user.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const banned = await createPlayer({ status: 'banned', statusReason: 'Fake referrals', fa: { statusReason: 'دعوت‌های جعلی' } });
    await expect(playerCaller(banned).user.me()).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Your account is blocked: Fake referrals',
      cause: { code: 'ACCOUNT_BANNED', params: { reason: 'Fake referrals' } },
    });
    const persian = await createPlayer({
      language: 'fa',
      status: 'banned',
      statusReason: 'Fake referrals',
      fa: { statusReason: 'دعوت‌های جعلی' },
    });
    await expect(playerCaller(persian).user.me()).rejects.toMatchObject({ cause: { params: { reason: 'دعوت‌های جعلی' } } });
  });
});

describe('user.me over HTTP', () => {
  const env = testEnv();
  const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

  it('registers a player from a Telegram launch and answers with their profile', async () => {
    const header = tmaHeader({
      user: { id: 6001, first_name: 'Reza', last_name: 'Ahmadi', username: 'reza_a', language_code: 'fa', allows_write_to_pm: true },
    });
    const res = await request(app).get('/trpc/user.me').set('Authorization', header);
    expect(res.status).toBe(200);
    const me = res.body.result.data.json;
    expect(Object.keys(me).sort()).toEqual(PROFILE_FIELDS);
    expect(me).toMatchObject({
      telegramId: 6001,
      name: 'Reza Ahmadi',
      username: 'reza_a',
      language: 'fa',
      messagePermission: true,
      isDemo: false,
    });
    expect(await UserModel.countDocuments({ telegramId: 6001 })).toBe(1);
  });

  it('answers 401 to a forged launch and to no credential', async () => {
    const forged = tmaHeader({ user: { id: 6002, first_name: 'Eve' } }, '987654321:AAFanotherBotTokenThatIsNotOurs_xyz');
    const refused = await request(app).get('/trpc/user.me').set('Authorization', forged);
    expect(refused.status).toBe(401);
    expect(refused.body.error.json.data.appCode).toBe('UNAUTHORIZED');
    expect((await request(app).get('/trpc/user.me')).status).toBe(401);
    expect(await UserModel.countDocuments({ telegramId: 6002 })).toBe(0);
  });

  it('lets the demo player in only in development without a bot token', async () => {
    const devApp = createApp({
      env: testEnv({ NODE_ENV: 'development', TELEGRAM_BOT_TOKEN: '' }),
      logger: silentLogger,
      clientDist: '/nonexistent',
      adminDist: '/nonexistent',
    });
    const demo = await request(devApp).get('/trpc/user.me').set('Authorization', 'demo');
    expect(demo.status).toBe(200);
    expect(demo.body.result.data.json).toMatchObject({ name: 'Demo Player', isDemo: true });
    expect((await request(app).get('/trpc/user.me').set('Authorization', 'demo')).status).toBe(401);
  });
});

describe('user.updateSettings', () => {
  it('changes language and theme, and nothing else', async () => {
    const player = await createPlayer({ language: 'en', theme: 'dark' });
    expect(await playerCaller(player).user.updateSettings({ language: 'fa' })).toEqual({ language: 'fa', theme: 'dark' });
    expect(await playerCaller(player).user.updateSettings({ theme: 'light' })).toEqual({ language: 'fa', theme: 'light' });
    await expect(playerCaller(player).user.updateSettings({ language: 'de' as 'en' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(playerCaller(player).user.updateSettings({ isDemo: true } as never)).resolves.toEqual({ language: 'fa', theme: 'light' });
    expect((await UserModel.findById(player._id))!.toObject()).toMatchObject({ language: 'fa', theme: 'light', isDemo: false });
  });
});

describe('user.allowMessages', () => {
  it("records the player's allowance from Telegram's write-access answer, for that player only", async () => {
    const [asked, other] = await Promise.all([createPlayer({ messagePermission: false }), createPlayer({ messagePermission: false })]);
    await expect(playerCaller(asked).user.allowMessages()).resolves.toEqual({ messagePermission: true });
    expect((await UserModel.findById(asked._id))!.messagePermission).toBe(true);
    expect((await UserModel.findById(other._id))!.messagePermission).toBe(false);
    // the next request (which loads the player afresh) shows it
    await expect(playerCaller(await UserModel.findById(asked._id)).user.me()).resolves.toMatchObject({ messagePermission: true });
  });
});
