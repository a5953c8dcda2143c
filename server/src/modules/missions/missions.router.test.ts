import bcrypt from 'bcryptjs';
import request from 'supertest';
import { fromMicros, toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { consoleToken } from '../accounts/operatorSecurity.service';
import { AccountModel } from '../accounts/account.model';
import { CategoryModel } from '../content/content.models';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { onFault } from '../../lib/faults';
import { NotificationModel } from '../notifications/notification.model';
import { UserModel } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { reviewUserMission } from './missions.service';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { silentLogger, testEnv, TEST_BOT_TOKEN } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';

const GO = new Date('2025-03-01T10:00:00Z');
const at = (minutesAfterGo: number) => () => new Date(GO.getTime() + minutesAfterGo * 60_000);

async function createCategory(fields: Record<string, unknown> = {}) {
  return CategoryModel.create({ title: 'Social', ...fields });
}

async function createMission(fields: Record<string, unknown> = {}) {
  const [category, coin] = await Promise.all([fields.category ? null : createCategory(), fields.coin ? null : createCoin()]);
  // set() takes the reward as a decimal string, as the console sends it
  const mission = new MissionModel();
  mission.set({
    category: category?._id,
    coin: coin?._id,
    title: 'Follow us',
    link: 'https://example.com/follow',
    reward: '2.5',
    verifyType: 'auto',
    ...fields,
  });
  return mission.save();
}

async function operatorToken() {
  const account = await AccountModel.create({
    username: `operator${Date.now()}${Math.random().toString(36).slice(2, 6)}`,
    passwordHash: await bcrypt.hash('a long operator password', 4),
    permissions: ['*'],
  });
  return consoleToken(account, testEnv().JWT_SECRET);
}

describe('missions.byCategory', () => {
  it('lists the enabled missions in order with the player status, and never the secret code', async () => {
    const player = await createPlayer();
    const coin = await createCoin({ symbol: 'GIFT' });
    const category = await createCategory({ title: 'Videos' });
    const common = { category: category._id, coin: coin._id };
    const second = await createMission({ ...common, title: 'Watch part 2', order: 2, verifyType: 'youtube', secretCode: 'TopSecret42' });
    const first = await createMission({ ...common, title: 'Watch part 1', order: 1, verifyType: 'time', verifyDuration: 5 });
    await createMission({ ...common, title: 'Retired', order: 0, enabled: false });
    const caller = playerCaller(player, { now: at(0) });
    await caller.missions.go({ missionId: String(first._id) });

    const page = await caller.missions.byCategory({ categoryId: String(category._id) });

    expect(page.category).toMatchObject({ id: String(category._id), title: 'Videos' });
    expect(page.missions.map((m) => m.title)).toEqual(['Watch part 1', 'Watch part 2']);
    expect(page.missions[0]).toMatchObject({ status: 'started', claimableAt: at(5)(), reward: '2.5', coin: { symbol: 'GIFT' } });
    expect(page.missions[1]).toMatchObject({ id: String(second._id), status: 'not_started', claimableAt: null, verifyType: 'youtube' });
    expect(JSON.stringify(page)).not.toMatch(/TopSecret42|secretCode/);
  });

  it('does not show a disabled category', async () => {
    const category = await createCategory({ enabled: false });
    await expect(playerCaller(await createPlayer()).missions.byCategory({ categoryId: String(category._id) })).rejects.toMatchObject({
      cause: { code: 'NOT_FOUND' },
    });
  });
});

describe('missions.go', () => {
  it('records the start once, counts it once, and gives the link', async () => {
    const player = await createPlayer();
    const mission = await createMission({ verifyType: 'time', verifyDuration: 3, link: 'https://example.com/page' });
    const caller = playerCaller(player, { now: at(0) });

    expect(await caller.missions.go({ missionId: String(mission._id) })).toEqual({ link: 'https://example.com/page' });
    await playerCaller(player, { now: at(2) }).missions.go({ missionId: String(mission._id) });

    const progress = await UserMissionModel.find({ user: player._id }).lean();
    expect(progress).toHaveLength(1);
    // tapping Go again does not restart the wait
    expect(progress[0]!.startedAt).toEqual(GO);
    expect((await UserModel.findById(player._id).lean())!.missionsCount).toBe(1);
  });

  it('counts 100 simultaneous first taps as one start', async () => {
    const player = await createPlayer();
    const mission = await createMission();
    await Promise.all(Array.from({ length: 100 }, () => playerCaller(player).missions.go({ missionId: String(mission._id) })));
    expect(await UserMissionModel.countDocuments({ user: player._id, mission: mission._id })).toBe(1);
    expect((await UserModel.findById(player._id).lean())!.missionsCount).toBe(1);
  });
});

describe('missions.claim', () => {
  it('Auto: done on claim, even without Go, credited once', async () => {
    const player = await createPlayer();
    const mission = await createMission({ reward: '2.5' });
    const caller = playerCaller(player);

    expect(await caller.missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'done', reward: '2.5' });
    await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({ message: 'Already done' });

    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('2.5');
    const user = (await UserModel.findById(player._id).lean())!;
    expect([user.missionsCount, user.doneMissionsCount]).toEqual([1, 1]);
    const progress = (await UserMissionModel.findOne({ user: player._id }).lean())!;
    expect(await LedgerEntryModel.countDocuments({ idempotencyKey: `mission:${progress._id}`, reason: 'mission', state: 'posted' })).toBe(
      1,
    );
    await expectLedgerMatchesBalances(player._id);
  });

  it.each(['time', 'instagram'] as const)('%s: refuses before the verify duration since Go, then credits', async (verifyType) => {
    const player = await createPlayer();
    const mission = await createMission({ verifyType, verifyDuration: 10, reward: '1' });
    const missionId = String(mission._id);

    await expect(playerCaller(player, { now: at(0) }).missions.claim({ missionId })).rejects.toMatchObject({
      cause: { code: 'MISSION_NOT_STARTED' },
    });
    await playerCaller(player, { now: at(0) }).missions.go({ missionId });
    await expect(playerCaller(player, { now: at(9.99) }).missions.claim({ missionId })).rejects.toMatchObject({
      cause: { code: 'TOO_EARLY' },
    });
    expect(await balanceOf(player._id, mission.coin)).toBe(0n);

    expect(await playerCaller(player, { now: at(10) }).missions.claim({ missionId })).toMatchObject({ status: 'done' });
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('1');
  });

  it('YouTube: a wrong code is refused, the right one in any case is credited', async () => {
    const player = await createPlayer();
    const mission = await createMission({ verifyType: 'youtube', secretCode: 'Gift2025', reward: '3' });
    const missionId = String(mission._id);
    const caller = playerCaller(player);
    await caller.missions.go({ missionId });

    await expect(caller.missions.claim({ missionId, code: 'gift2024' })).rejects.toMatchObject({
      message: 'Incorrect code',
      cause: { code: 'INCORRECT_CODE' },
    });
    await expect(caller.missions.claim({ missionId })).rejects.toMatchObject({ cause: { code: 'INCORRECT_CODE' } });
    expect(await balanceOf(player._id, mission.coin)).toBe(0n);

    await caller.missions.claim({ missionId, code: '  GIFT2025 ' });
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('3');
  });

  describe('Telegram', () => {
    let standIn: BotApiStandIn;
    beforeAll(async () => {
      standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
    });
    afterAll(() => standIn.close());

    async function telegramMission(channel: string) {
      return createMission({ verifyType: 'telegram', link: `https://t.me/${channel}`, reward: '4' });
    }

    it('credits a member, asking Telegram about the channel of the link', async () => {
      const player = await createPlayer();
      const mission = await telegramMission('giftnews');
      standIn.members.set('@giftnews', new Map([[player.telegramId, { status: 'member' }]]));
      const caller = playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }) });
      await caller.missions.go({ missionId: String(mission._id) });

      expect(await caller.missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'done' });
      expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('4');
      expect(standIn.calls.at(-1)).toEqual({ method: 'getChatMember', params: { chat_id: '@giftnews', user_id: player.telegramId } });
    });

    it('asks about a private chat by the id the operator gave for its invite link', async () => {
      const player = await createPlayer();
      const mission = await createMission({
        verifyType: 'telegram',
        link: 'https://t.me/+AbCdEf123456',
        telegramChatId: '-1001234567890',
        reward: '4',
      });
      standIn.members.set('-1001234567890', new Map([[player.telegramId, { status: 'member' }]]));
      const caller = playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }) });
      await caller.missions.go({ missionId: String(mission._id) });
      expect(await caller.missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'done' });
      expect(standIn.calls.at(-1)).toEqual({ method: 'getChatMember', params: { chat_id: '-1001234567890', user_id: player.telegramId } });
    });

    it('counts a restricted member who is still in the chat', async () => {
      const player = await createPlayer();
      const mission = await telegramMission('giftgroup');
      standIn.members.set('@giftgroup', new Map([[player.telegramId, { status: 'restricted', is_member: true }]]));
      const caller = playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }) });
      await caller.missions.go({ missionId: String(mission._id) });
      expect(await caller.missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'done' });
    });

    it.each([
      ['left', { status: 'left' }],
      ['kicked', { status: 'kicked' }],
      ['restricted but gone', { status: 'restricted', is_member: false }],
    ])('tells a player who is %s that they have not joined yet', async (_label, member) => {
      const player = await createPlayer();
      const mission = await telegramMission('giftclub');
      standIn.members.set('@giftclub', new Map([[player.telegramId, member]]));
      const caller = playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }) });
      await caller.missions.go({ missionId: String(mission._id) });

      await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({
        message: "You haven't joined yet",
        cause: { code: 'NOT_JOINED' },
      });
      expect(await balanceOf(player._id, mission.coin)).toBe(0n);
      expect((await UserMissionModel.findOne({ user: player._id }).lean())!.status).toBe('started');
    });

    it('never credits when Telegram cannot answer, and tells the player to try again later: unknown chat, or unreachable', async () => {
      const player = await createPlayer();
      const mission = await telegramMission('nosuchchannel');
      const caller = playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot }) });
      await caller.missions.go({ missionId: String(mission._id) });
      const cannotCheck = {
        message: 'Telegram could not confirm that you joined right now. Try again in a few minutes',
        cause: { code: 'TELEGRAM_CHECK_FAILED', status: 503, retryAfterSeconds: 60 },
      };
      await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject(cannotCheck);

      const gone = await startBotApiStandIn(TEST_BOT_TOKEN);
      await gone.close();
      const offline = playerCaller(player, { env: testEnv({ TELEGRAM_API_ROOT: gone.apiRoot }) });
      await expect(offline.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject(cannotCheck);

      expect(await balanceOf(player._id, mission.coin)).toBe(0n);
      expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(0);
    });
  });

  describe('star missions', () => {
    // star missions hold back every player, so each test retires its own
    afterEach(() => MissionModel.updateMany({ mustDone: true }, { $set: { enabled: false } }));

    it('refuse other missions until every enabled ⭐ mission is done', async () => {
      const player = await createPlayer();
      const star = await createMission({ mustDone: true, title: 'Join the channel' });
      await createMission({ mustDone: true, enabled: false, title: 'Retired star' });
      const other = await createMission({ title: 'Ordinary' });
      const caller = playerCaller(player);
      await caller.missions.go({ missionId: String(other._id) });

      await expect(caller.missions.claim({ missionId: String(other._id) })).rejects.toMatchObject({
        message: 'You must done all ⭐ tasks',
        cause: { code: 'STAR_MISSIONS_FIRST' },
      });
      expect(await balanceOf(player._id, other.coin)).toBe(0n);

      await caller.missions.claim({ missionId: String(star._id) });
      expect(await caller.missions.claim({ missionId: String(other._id) })).toMatchObject({ status: 'done' });
    });

    it('do not hold back another player', async () => {
      const [done, fresh] = await Promise.all([createPlayer(), createPlayer()]);
      const star = await createMission({ mustDone: true });
      const other = await createMission();
      await playerCaller(done).missions.claim({ missionId: String(star._id) });
      await expect(playerCaller(fresh).missions.claim({ missionId: String(other._id) })).rejects.toMatchObject({
        cause: { code: 'STAR_MISSIONS_FIRST' },
      });
    });
  });

  it('credits one of 100 simultaneous claims of a mission, once', async () => {
    const player = await createPlayer();
    const mission = await createMission({ reward: '7.000001' });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () => playerCaller(player).missions.claim({ missionId: String(mission._id) })),
    );

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { cause?: { code?: string } }).cause?.code] : []));
    expect(new Set(refusals)).toEqual(new Set(['ALREADY_DONE']));
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('7.000001');
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'mission' })).toBe(1);
    const user = (await UserModel.findById(player._id).lean())!;
    expect([user.missionsCount, user.doneMissionsCount]).toEqual([1, 1]);
    await expectLedgerMatchesBalances(player._id);
  });
});

describe('Manual missions and their review in User Missions', () => {
  const env = testEnv();
  const app = createApp({ env, logger: silentLogger });

  async function pendingManualMission() {
    const player = await createPlayer();
    const mission = await createMission({ verifyType: 'manual', reward: '10' });
    const caller = playerCaller(player);
    await caller.missions.go({ missionId: String(mission._id) });
    expect(await caller.missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'pending' });
    const progress = (await UserMissionModel.findOne({ user: player._id, mission: mission._id }).lean())!;
    return { player, mission, caller, progressId: String(progress._id) };
  }

  it('waits for review without a credit, and says so on a second claim', async () => {
    const { player, mission, caller } = await pendingManualMission();
    await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({ message: 'Waiting for review' });
    expect(await balanceOf(player._id, mission.coin)).toBe(0n);
    expect((await UserModel.findById(player._id).lean())!.doneMissionsCount).toBe(0);
  });

  it('credits the reward when an operator approves it, once', async () => {
    const { player, mission, progressId } = await pendingManualMission();
    const token = await operatorToken();

    const approved = await request(app)
      .put(`/api/admin/user-missions/${progressId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status: 'done' })
      .expect(200);
    expect(approved.body).toMatchObject({ id: progressId, status: 'done', reward: '10' });
    expect(approved.body.reviewedBy).toEqual(expect.stringMatching(/^[a-f\d]{24}$/));
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('10');
    expect((await UserModel.findById(player._id).lean())!.doneMissionsCount).toBe(1);

    const again = await request(app)
      .put(`/api/admin/user-missions/${progressId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status: 'done' })
      .expect(409);
    expect(again.body).toEqual({
      code: 'MISSION_NOT_PENDING',
      message: 'Only a pending mission can be approved or rejected; this one is done',
      // the message's values, for the console to write it in Persian
      params: { status: 'done' },
    });
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('10');
    await expectLedgerMatchesBalances(player._id);
  });

  it('finishes an approval that a crash interrupted before the credit, by the sweep alone, once', async () => {
    const { player, mission, progressId } = await pendingManualMission();
    await UserModel.updateOne({ _id: player._id }, { $set: { messagePermission: true } });
    const token = await operatorToken();
    // the approval's operation is recorded (the credit owed from now on), then the process dies: the claim still pending
    onFault((point) => {
      if (point === 'ledger:after-record') throw new Error('killed');
    });
    await request(app)
      .put(`/api/admin/user-missions/${progressId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status: 'done' })
      .expect(500);
    onFault(null);
    expect(await balanceOf(player._id, mission.coin)).toBe(0n);

    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('10');
    expect(await UserMissionModel.findById(progressId).lean()).toMatchObject({ status: 'done', reviewedBy: expect.anything() });
    expect((await UserModel.findById(player._id).lean())!.doneMissionsCount).toBe(1);
    // and the player is told, once: the word of the approval is the operation's too
    expect(await NotificationModel.find({ key: `mission-approved:${progressId}` }, { _id: 0, event: 1, facts: 1 }).lean()).toEqual([
      {
        event: 'mission-approved',
        facts: { mission: mission.title, missionId: String(mission._id), amount: '10', symbol: expect.any(String) },
      },
    ]);
    await expectLedgerMatchesBalances(player._id);
  });

  it('lets the player try again after a rejection', async () => {
    const { player, mission, caller, progressId } = await pendingManualMission();
    const token = await operatorToken();

    await request(app)
      .put(`/api/admin/user-missions/${progressId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status: 'rejected', rejectReason: 'Screenshot missing' })
      .expect(200);
    expect(await balanceOf(player._id, mission.coin)).toBe(0n);
    const page = await caller.missions.byCategory({ categoryId: String(mission.category) });
    expect(page.missions[0]).toMatchObject({ status: 'rejected', rejectReason: 'Screenshot missing' });

    await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({
      cause: { code: 'MISSION_NOT_STARTED' },
    });
    await caller.missions.go({ missionId: String(mission._id) });
    expect(await caller.missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'pending' });
    expect((await UserModel.findById(player._id).lean())!.missionsCount).toBe(1);
  });

  it('refuses a bad review, creation and deletion', async () => {
    const { progressId } = await pendingManualMission();
    const token = await operatorToken();
    const bad = await request(app)
      .put(`/api/admin/user-missions/${progressId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ status: 'started' })
      .expect(400);
    expect(bad.body.errors).toHaveProperty('status');
    await request(app).post('/api/admin/user-missions').set('Authorization', `Bearer ${token}`).send({ status: 'done' }).expect(403);
    const removal = await request(app).delete(`/api/admin/user-missions/${progressId}`).set('Authorization', `Bearer ${token}`).expect(405);
    expect(removal.body.message).toBe("Cannot delete: a player's progress stays with them; reject a pending review instead");
    expect((await UserMissionModel.findById(progressId).lean())!.status).toBe('pending');
  });

  it('lets an approval and a rejection arriving together decide once', async () => {
    const { player, mission, progressId } = await pendingManualMission();
    const reviewer = String((await AccountModel.create({ username: 'reviewer-race', passwordHash: 'x', permissions: ['*'] }))._id);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        reviewUserMission(progressId, i % 2 ? { status: 'done' } : { status: 'rejected', rejectReason: 'no' }, reviewer, new Date()),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const final = (await UserMissionModel.findById(progressId).lean())!;
    const credited = await balanceOf(player._id, mission.coin);
    expect(credited).toBe(final.status === 'done' ? toMicros('10') : 0n);
    await expectLedgerMatchesBalances(player._id);
  });

  it('lists them with filters on status and player', async () => {
    const { player, progressId } = await pendingManualMission();
    const token = await operatorToken();
    const list = await request(app)
      .get('/api/admin/user-missions')
      .query({ filter: JSON.stringify({ status: 'pending', user: String(player._id) }), sort: JSON.stringify(['claimedAt', 'DESC']) })
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(list.body.map((r: { id: string }) => r.id)).toEqual([progressId]);
    expect(list.headers['content-range']).toBe('user-missions 0-0/1');
  });
});

describe('over HTTP', () => {
  it('refuses a claim from someone who is not signed in', async () => {
    const mission = await createMission();
    const app = createApp({ env: testEnv(), logger: silentLogger });
    const response = await request(app)
      .post('/trpc/missions.claim')
      .send({ json: { missionId: String(mission._id) } });
    expect(response.status).toBe(401);
    expect(await UserMissionModel.countDocuments({ mission: mission._id })).toBe(0);
  });
});
