import type { Types } from 'mongoose';
import { fromMicros, type VerifyType } from '@gift/shared';
import { CategoryModel } from '../content/content.models';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf } from '../ledger/ledger.service';
import type { UserDocument } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { testEnv, TEST_BOT_TOKEN } from '../../../test/helpers';

const GO = new Date('2026-11-27T10:00:00Z');
const at = (minutesAfterGo: number) => () => new Date(GO.getTime() + minutesAfterGo * 60_000);
const IN_A_MONTH = Math.floor(GO.getTime() / 1000) + 30 * 86_400;
const EMOJI = '5368324170671202286';

let standIn: BotApiStandIn;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
});
afterAll(() => standIn.close());

/** A mission of one of the Telegram-native types, paying 2 of a coin of its own. */
async function nativeMission(verifyType: VerifyType, fields: Record<string, unknown> = {}) {
  const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Telegram' }), createCoin()]);
  return MissionModel.create({ category: category._id, coin: coin._id, title: 'Grow with us', reward: 2_000_000, verifyType, ...fields });
}

/** The player's caller at `minutes` after Go, whose bot talks to the stand-in (or to `apiRoot`). */
const callerAt = (player: UserDocument, minutes: number, apiRoot = standIn.apiRoot) =>
  playerCaller(player, { now: at(minutes), env: testEnv({ TELEGRAM_API_ROOT: apiRoot }) });

/** Nothing credited and the progress still started: a refusal that changed nothing. */
async function expectNothingCredited(player: UserDocument, mission: { _id: Types.ObjectId; coin: Types.ObjectId }) {
  expect(await balanceOf(player._id, mission.coin)).toBe(0n);
  expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(0);
  expect((await UserMissionModel.findOne({ user: player._id, mission: mission._id }).lean())?.status).toBe('started');
}

const CANNOT_CHECK = { cause: { code: 'TELEGRAM_CHECK_FAILED', status: 503, retryAfterSeconds: 60 } };

/** A stand-in that is gone: Telegram unreachable. */
async function unreachableApiRoot() {
  const gone = await startBotApiStandIn(TEST_BOT_TOKEN);
  await gone.close();
  return gone.apiRoot;
}

describe('Boost a channel', () => {
  it('Go opens the channel’s boost page; Claim credits once Telegram lists an active boost by the player', async () => {
    const player = await createPlayer();
    const mission = await nativeMission('boost', { link: 'https://t.me/giftboosted' });
    const missionId = String(mission._id);
    standIn.boosts.set('@giftboosted', new Map([[player.telegramId, [IN_A_MONTH]]]));

    expect(await callerAt(player, 0).missions.go({ missionId })).toEqual({ link: 'https://t.me/boost/giftboosted' });
    const listed = await callerAt(player, 0).missions.byCategory({ categoryId: String(mission.category) });
    expect(listed.missions[0]).toMatchObject({ verifyType: 'boost', link: 'https://t.me/boost/giftboosted' });

    expect(await callerAt(player, 1).missions.claim({ missionId })).toMatchObject({ status: 'done', reward: '2' });
    expect(standIn.calls.at(-1)).toEqual({ method: 'getUserChatBoosts', params: { chat_id: '@giftboosted', user_id: player.telegramId } });
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('2');
  });

  it.each([
    ['no boost at all', []],
    ['only a boost that expired', [Math.floor(GO.getTime() / 1000) - 60]],
  ])('says the player has not boosted yet when Telegram lists %s', async (_label, expirations) => {
    const player = await createPlayer();
    const mission = await nativeMission('boost', { link: 'https://t.me/giftexpired' });
    standIn.boosts.set('@giftexpired', new Map([[player.telegramId, expirations]]));
    await callerAt(player, 0).missions.go({ missionId: String(mission._id) });

    await expect(callerAt(player, 1).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({
      message: "You haven't boosted the channel yet",
      cause: { code: 'NOT_BOOSTED' },
    });
    await expectNothingCredited(player, mission);
  });

  it('never credits when Telegram cannot answer (the bot is not an admin there, or Telegram is unreachable): 503, try later', async () => {
    const player = await createPlayer();
    const mission = await nativeMission('boost', { link: 'https://t.me/boost/giftnoadmin' });
    await callerAt(player, 0).missions.go({ missionId: String(mission._id) });

    await expect(callerAt(player, 1).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject(CANNOT_CHECK);
    await expect(callerAt(player, 1, await unreachableApiRoot()).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject(
      CANNOT_CHECK,
    );
    await expectNothingCredited(player, mission);
  });
});

describe('Emoji status', () => {
  it('credits once Telegram shows the mission’s custom emoji as the player’s status, and gives the app the emoji to set', async () => {
    const player = await createPlayer();
    const mission = await nativeMission('emojiStatus', { emojiId: EMOJI });
    const missionId = String(mission._id);
    const listed = await callerAt(player, 0).missions.byCategory({ categoryId: String(mission.category) });
    expect(listed.missions[0]).toMatchObject({ verifyType: 'emojiStatus', emojiId: EMOJI, story: null });
    await callerAt(player, 0).missions.go({ missionId });
    standIn.emojiStatuses.set(player.telegramId, EMOJI);

    expect(await callerAt(player, 1).missions.claim({ missionId })).toMatchObject({ status: 'done' });
    expect(standIn.calls.at(-1)).toEqual({ method: 'getChat', params: { chat_id: player.telegramId } });
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('2');
  });

  it.each([
    ['no emoji status', undefined],
    ['another custom emoji', '5368324170671202999'],
  ])('refuses a player who shows %s', async (_label, emoji) => {
    const player = await createPlayer();
    const mission = await nativeMission('emojiStatus', { emojiId: EMOJI });
    if (emoji) standIn.emojiStatuses.set(player.telegramId, emoji);
    await callerAt(player, 0).missions.go({ missionId: String(mission._id) });

    await expect(callerAt(player, 1).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({
      cause: { code: 'EMOJI_STATUS_NOT_SET' },
    });
    await expectNothingCredited(player, mission);
  });

  it('never credits when Telegram is unreachable or fails: 503, try later', async () => {
    const player = await createPlayer();
    const mission = await nativeMission('emojiStatus', { emojiId: EMOJI });
    standIn.emojiStatuses.set(player.telegramId, EMOJI);
    await callerAt(player, 0).missions.go({ missionId: String(mission._id) });

    await expect(callerAt(player, 1, await unreachableApiRoot()).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject(
      CANNOT_CHECK,
    );
    standIn.failNext.set('getChat', { status: 500, description: 'Internal Server Error' });
    await expect(callerAt(player, 1).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject(CANNOT_CHECK);
    await expectNothingCredited(player, mission);
  });
});

describe('Home screen (client-attested, after a wait)', () => {
  it('refuses before the wait, and without the player’s Telegram saying the shortcut is there; credits with it', async () => {
    const player = await createPlayer();
    const mission = await nativeMission('homeScreen', { verifyDuration: 5 });
    const missionId = String(mission._id);
    await callerAt(player, 0).missions.go({ missionId });

    await expect(callerAt(player, 4).missions.claim({ missionId, homeScreen: 'added' })).rejects.toMatchObject({
      cause: { code: 'TOO_EARLY' },
    });
    for (const homeScreen of [undefined, 'missed', 'unknown', 'unsupported'] as const)
      await expect(callerAt(player, 5).missions.claim({ missionId, homeScreen })).rejects.toMatchObject({
        cause: { code: 'HOME_SCREEN_NOT_ADDED' },
      });
    await expectNothingCredited(player, mission);

    expect(await callerAt(player, 5).missions.claim({ missionId, homeScreen: 'added' })).toMatchObject({ status: 'done' });
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('2');
    // nothing was asked of Telegram: the server cannot see a home screen
    expect(standIn.calls.filter((call) => call.params.user_id === player.telegramId)).toEqual([]);
  });
});

describe('Share a story (cannot be checked: after a wait)', () => {
  it('gives the app the media and the caption in the player’s language; credits only after the wait', async () => {
    const player = await createPlayer({ language: 'fa' });
    const mission = await nativeMission('story', {
      verifyDuration: 3,
      storyMedia: 'https://example.com/story.jpg',
      storyText: 'Join me',
      fa: { storyText: 'به من بپیوندید' },
    });
    const missionId = String(mission._id);
    const listed = await callerAt(player, 0).missions.byCategory({ categoryId: String(mission.category) });
    expect(listed.missions[0]).toMatchObject({ story: { media: 'https://example.com/story.jpg', text: 'به من بپیوندید' }, emojiId: '' });

    await expect(callerAt(player, 0).missions.claim({ missionId })).rejects.toMatchObject({ cause: { code: 'MISSION_NOT_STARTED' } });
    await callerAt(player, 0).missions.go({ missionId });
    await expect(callerAt(player, 2).missions.claim({ missionId })).rejects.toMatchObject({ cause: { code: 'TOO_EARLY' } });
    await expectNothingCredited(player, mission);
    expect(await callerAt(player, 3).missions.claim({ missionId })).toMatchObject({ status: 'done' });
  });
});

it.each([
  ['boost', { link: 'https://t.me/giftrace' }],
  ['emojiStatus', { emojiId: EMOJI }],
  ['homeScreen', { verifyDuration: 1 }],
  ['story', { verifyDuration: 1, storyMedia: 'https://example.com/story.jpg' }],
] as const)('%s: 20 simultaneous claims credit once', async (verifyType, fields) => {
  const player = await createPlayer();
  const mission = await nativeMission(verifyType, fields);
  standIn.boosts.set('@giftrace', new Map([[player.telegramId, [IN_A_MONTH]]]));
  standIn.emojiStatuses.set(player.telegramId, EMOJI);
  await callerAt(player, 0).missions.go({ missionId: String(mission._id) });

  const outcomes = await Promise.allSettled(
    Array.from({ length: 20 }, () => callerAt(player, 2).missions.claim({ missionId: String(mission._id), homeScreen: 'added' })),
  );
  expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { cause?: { code?: string } }).cause?.code] : []));
  expect(new Set(refusals)).toEqual(new Set(['ALREADY_DONE']));
  expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('2');
  expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'mission' })).toBe(1);
});
