import request from 'supertest';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { startBotApiWithEnv, type BotApiStandIn } from '../../../test/botApiStandIn';
import { silentLogger, testEnv } from '../../../test/helpers';
import { tmaHeader } from '../../../test/telegram';
import { getAppConfig } from '../config/config.service';

async function configure(fields: Record<string, unknown>) {
  const config = await getAppConfig();
  config.set(fields);
  await config.save();
}

describe('referrals.summary', () => {
  it('says invites are not configured while the bot username is empty', async () => {
    await configure({ botUsername: '' });
    const player = await createPlayer();
    await expect(playerCaller(player).referrals.summary()).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'This feature is not configured yet',
    });
  });

  it('gives the invite link, bot link, Telegram share link and reward', async () => {
    const coin = await createCoin({ symbol: 'GIFT' });
    await configure({
      botUsername: '@GiftRewardsBot',
      miniAppName: 'play',
      referrerMessage: 'Join me & earn 5 GIFT!',
      referrerCoin: coin._id,
      referrerCoinAmount: Number(toMicros('5')),
    });
    const player = await createPlayer({ referralCode: 'Ab3_x-9Z', referrersCount: 3, inviteLimit: 20 });
    await Promise.all([createPlayer({ referrer: player._id }), createPlayer({ referrer: player._id })]);

    const summary = await playerCaller(player).referrals.summary();
    expect(summary).toEqual({
      code: 'Ab3_x-9Z',
      inviteLink: 'https://t.me/GiftRewardsBot/play?startapp=Ab3_x-9Z',
      botLink: 'https://t.me/GiftRewardsBot?start=Ab3_x-9Z',
      shareUrl:
        'https://t.me/share/url?url=https%3A%2F%2Ft.me%2FGiftRewardsBot%2Fplay%3Fstartapp%3DAb3_x-9Z&text=Join%20me%20%26%20earn%205%20GIFT!',
      shareText: 'Join me & earn 5 GIFT!',
      invitedCount: 3,
      inviteLimit: 20,
      friendsCount: 2,
      qualifiedCount: 0,
      qualification: { doneMissions: 0, activeDays: 0, premiumRewardPercent: 100 },
      reward: { amount: '5', symbol: 'GIFT' },
    });
  });

  it("opens the bot's main mini app when no mini app name is set, and shows no reward without a referrer coin", async () => {
    await configure({ botUsername: 'GiftRewardsBot', miniAppName: '', referrerMessage: '', referrerCoin: null, referrerCoinAmount: 0 });
    const player = await createPlayer({ referralCode: 'code1234' });
    const summary = await playerCaller(player).referrals.summary();
    expect(summary.inviteLink).toBe('https://t.me/GiftRewardsBot?startapp=code1234');
    expect(summary.shareUrl).toBe('https://t.me/share/url?url=https%3A%2F%2Ft.me%2FGiftRewardsBot%3Fstartapp%3Dcode1234');
    expect(summary.reward).toBeNull();
  });

  it('answers over HTTP for a player launching from Telegram', async () => {
    await configure({ botUsername: 'GiftRewardsBot', miniAppName: 'play' });
    const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const res = await request(app)
      .get('/trpc/referrals.summary')
      .set('Authorization', tmaHeader({ user: { id: 6101, first_name: 'Http' } }));
    expect(res.status).toBe(200);
    expect(res.body.result.data.json.inviteLink).toMatch(/^https:\/\/t\.me\/GiftRewardsBot\/play\?startapp=[A-Za-z0-9_-]{8}$/);
  });
});

describe('referrals.friends', () => {
  it('pages the invited friends newest first, without their Telegram ids', async () => {
    const player = await createPlayer();
    const someoneElse = await createPlayer();
    for (let i = 1; i <= 5; i++) {
      await createPlayer({ referrer: player._id, name: `Friend ${i}`, username: `friend_${i}`, createdAt: new Date(Date.UTC(2025, 0, i)) });
    }
    await createPlayer({ referrer: someoneElse._id });

    const first = await playerCaller(player).referrals.friends({ page: 1, pageSize: 2 });
    expect(first).toEqual({
      items: [
        { name: 'Friend 5', username: 'friend_5', joinedAt: new Date(Date.UTC(2025, 0, 5)) },
        { name: 'Friend 4', username: 'friend_4', joinedAt: new Date(Date.UTC(2025, 0, 4)) },
      ],
      total: 5,
      page: 1,
      pageSize: 2,
    });
    const last = await playerCaller(player).referrals.friends({ page: 3, pageSize: 2 });
    expect(last.items.map((f) => f.name)).toEqual(['Friend 1']);
    expect((await playerCaller(player).referrals.friends()).items).toHaveLength(5);
    await expect(playerCaller(player).referrals.friends({ page: 1, pageSize: 1000 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('referrals.prepareShare (Telegram 8.0: share the invite to chats the player picks)', () => {
  let standIn: BotApiStandIn;
  let env: ReturnType<typeof testEnv>;
  beforeAll(async () => ({ standIn, env } = await startBotApiWithEnv()));
  afterAll(() => standIn.close());

  it("saves the invite with the bot for this player: the message, the link and a button in the player's language", async () => {
    await configure({ botUsername: 'GiftRewardsBot', miniAppName: 'play', referrerMessage: 'Join me & earn 5 GIFT!' });
    const player = await createPlayer({ referralCode: 'share123', language: 'fa' });
    const prepared = await playerCaller(player, { env }).referrals.prepareShare();
    expect(prepared).toEqual({ id: expect.stringMatching(/^prepared-\d+$/) });
    const saved = standIn.prepared.at(-1)!;
    expect(saved).toMatchObject({
      user_id: player.telegramId,
      allow_user_chats: true,
      allow_group_chats: true,
      result: {
        type: 'article',
        input_message_content: { message_text: 'Join me & earn 5 GIFT!\nhttps://t.me/GiftRewardsBot/play?startapp=share123' },
        reply_markup: { inline_keyboard: [[{ text: 'باز کردن برنامه', url: 'https://t.me/GiftRewardsBot/play?startapp=share123' }]] },
      },
    });

    // a second share reuses it while Telegram keeps it; a changed message is prepared anew
    const calls = standIn.prepared.length;
    await expect(playerCaller(player, { env }).referrals.prepareShare()).resolves.toEqual(prepared);
    expect(standIn.prepared).toHaveLength(calls);
    await configure({ referrerMessage: 'New season: join me!' });
    const changed = await playerCaller(player, { env }).referrals.prepareShare();
    expect(changed.id).not.toBe(prepared.id);
    expect(standIn.prepared).toHaveLength(calls + 1);
  });

  it('says so when Telegram refuses, and when there is no bot; the app then falls back to the share link', async () => {
    await configure({ botUsername: 'GiftRewardsBot', miniAppName: 'play', referrerMessage: 'Refused' });
    const player = await createPlayer();
    standIn.failNext.set('savePreparedInlineMessage', { status: 400, description: 'Bad Request: USER_ID_INVALID' });
    await expect(playerCaller(player, { env }).referrals.prepareShare()).rejects.toMatchObject({
      message: 'The service is briefly unavailable, try again in a few seconds',
    });
    await expect(
      playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, TELEGRAM_BOT_TOKEN: '' }) }).referrals.prepareShare(),
    ).rejects.toMatchObject({ message: 'This feature is not configured yet' });
  });
});
