import { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN } from '../../../test/helpers';
import { APP_LINK, drained, messagesTo as messagesToPlayer, testSender } from '../../../test/notificationSenders';
import { getAppConfig, setAppConfigFields } from '../config/config.service';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { CategoryModel } from '../content/content.models';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { reviewUserMission } from '../missions/missions.service';
import { startMining } from '../mining/mining.service';
import { StakingCoinModel } from '../staking/staking.models';
import { stake } from '../staking/staking.service';
import { setPlayerStatus } from '../users/playerStatus.service';
import { UserModel, type UserDocument } from '../users/user.model';
import { upsertFromTelegram } from '../users/users.service';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { processWithdrawal } from '../withdrawals/withdrawals.service';
import { NotificationModel } from './notification.model';
import { notify, type NotificationSender } from './notifications.service';

const DAY = 24 * 3600_000;
/** Money fields hold micro-units. */
const micros = (amount: string) => Number(toMicros(amount));

let standIn: BotApiStandIn;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  // the reminders here are about what each says, whatever the hour the tests run: no quiet hours
  await setAppConfigFields({ reminders: { quietStart: '00:00', quietEnd: '00:00', dailyCap: 3, streakHoursBefore: 4 } });
});
afterAll(() => standIn.close());

const sender = (ahead = { ms: 0 }) => testSender(standIn, ahead);
const messagesTo = (player: UserDocument) => messagesToPlayer(standIn, player);

const reachable = (fields: Record<string, unknown> = {}) => createPlayer({ messagePermission: true, ...fields });
const reviewer = String(new Types.ObjectId());

async function pendingManualMission(player: UserDocument, title: string) {
  const coin = await createCoin({ symbol: 'GIFT' });
  const category = await CategoryModel.create({ title: 'Social' });
  const mission = await MissionModel.create({ category: category._id, title, reward: micros('25'), coin: coin._id, verifyType: 'manual' });
  const progress = await UserMissionModel.create({
    user: player._id,
    mission: mission._id,
    category: category._id,
    coin: coin._id,
    reward: micros('25'),
    status: 'pending',
    claimedAt: new Date(),
  });
  return String(progress._id);
}

async function pendingWithdrawal(player: UserDocument, amount: string) {
  const coin = await createCoin({ symbol: 'GIFT' });
  await fund(player._id, coin._id, '500');
  const withdrawal = await WithdrawalModel.create({
    user: player._id,
    coin: coin._id,
    amount: micros(amount),
    address: 'UQ-test-address',
    idempotencyKey: String(new Types.ObjectId()),
  });
  return String(withdrawal._id);
}

describe('notifications of each event', () => {
  const ahead = { ms: 0 };
  let running: NotificationSender;
  beforeAll(() => {
    running = sender(ahead);
    running.start();
  });
  afterAll(() => running.stop());

  it('tells a referrer that a friend joined with their link, with its reward, once', async () => {
    const coin = await createCoin({ symbol: 'GIFT' });
    const config = await getAppConfig();
    config.set({ referrerCoin: coin._id, referrerCoinAmount: '50' });
    await config.save();
    const referrer = await reachable({ referralCode: 'friendly1' });
    const launch = {
      user: { id: 77_001, first_name: 'Sara', language_code: 'en' },
      auth_date: Math.floor(Date.now() / 1000),
      start_param: 'friendly1',
    };
    await upsertFromTelegram(launch, new Date());
    await upsertFromTelegram({ ...launch, user: { ...launch.user, last_name: 'again' } }, new Date());
    await drained(running);
    expect(messagesTo(referrer)).toHaveLength(1);
    expect(messagesTo(referrer)[0]).toMatchObject({
      text: '🎉 “Sara” joined with your invite link. You earned 50 GIFT.',
      reply_markup: { inline_keyboard: [[{ text: 'Open the app', url: APP_LINK }]] },
    });
  });

  it('does not let a newcomer phish the referrer through the bot with their Telegram name (issue 14, finding 5)', async () => {
    const referrer = await reachable({ referralCode: 'phished01' });
    const persian = await reachable({ referralCode: 'phished02', language: 'fa' });
    const bait =
      '⚠️ Gift Rewards Support: your GIFT is frozen, verify at https://gift-support.example/verify or t.me/GiftSupportBot @GiftSupport';
    const joinWith = (id: number, code: string) =>
      upsertFromTelegram(
        {
          user: { id, first_name: bait.slice(0, 64), last_name: bait.slice(64), language_code: 'en' },
          auth_date: Math.floor(Date.now() / 1000),
          start_param: code,
        },
        new Date(),
      );
    await joinWith(77_101, 'phished01');
    await joinWith(77_102, 'phished02');
    await drained(running);

    const [sent] = messagesTo(referrer);
    expect(sent!.text).toMatch(/^🎉 “Gift Rewards Support your GIFT…” joined with your invite link\./);
    const [sentFa] = messagesTo(persian);
    expect(sentFa!.text).toMatch(/^🎉 «Gift Rewards Support your GIFT…» با لینک دعوت شما عضو شد/);
    for (const text of [sent!.text, sentFa!.text]) {
      // nothing Telegram would turn into a link or a mention, and not the bait's words after the first few
      expect(text).not.toMatch(/https?:|t\.me|\.example|@\w|\/\w/);
      expect(text).not.toContain('verify');
    }
    expect(sent!.entities).toBeUndefined();
  });

  it('tells a player their Manual mission was approved, or rejected with the reason, in their language', async () => {
    const approved = await reachable();
    const rejected = await reachable({ language: 'fa' });
    await reviewUserMission(await pendingManualMission(approved, 'Follow us'), { status: 'done' }, reviewer, new Date());
    await reviewUserMission(
      await pendingManualMission(rejected, 'Post a story'),
      { status: 'rejected', rejectReason: 'Screenshot missing' },
      reviewer,
      new Date(),
    );
    await drained(running);
    expect(messagesTo(approved).map((m) => m.text)).toEqual(['✅ Your mission "Follow us" was approved. You earned 25 GIFT.']);
    expect(messagesTo(rejected).map((m) => m.text)).toEqual([
      '❌ ماموریت «Post a story» شما تأیید نشد.\nدلیل: Screenshot missing\nمی‌توانید دوباره امتحان کنید.',
    ]);
    expect(messagesTo(rejected)[0]!.reply_markup).toEqual({ inline_keyboard: [[{ text: 'باز کردن برنامه', url: APP_LINK }]] });
  });

  it('tells a frozen player at the approval that the reward is held, in their language, and nothing more when it lands', async () => {
    const frozen = await reachable();
    const banned = await reachable({ language: 'fa' });
    await setPlayerStatus(frozen._id, { status: 'frozen', statusReason: 'Checking' }, new Date());
    await setPlayerStatus(banned._id, { status: 'banned', statusReason: 'Bots' }, new Date());
    const claims = [await pendingManualMission(frozen, 'Follow us'), await pendingManualMission(banned, 'Post a story')];
    for (const claim of claims) await reviewUserMission(claim, { status: 'done' }, reviewer, new Date());
    await drained(running);
    const held = [
      '✅ Your mission "Follow us" was approved. You earned 25 GIFT.\nYour account is frozen: the reward is held and credited once it is active again.',
    ];
    const heldFa = [
      '✅ ماموریت «Post a story» شما تأیید شد. شما 25 GIFT دریافت کردید.\nحساب شما مسدود شده است: این پاداش نگه داشته می‌شود و پس از فعال شدن دوبارهٔ حساب به موجودی شما اضافه می‌شود.',
    ];
    expect(messagesTo(frozen).map((m) => m.text)).toEqual(held);
    expect(messagesTo(banned).map((m) => m.text)).toEqual(heldFa);
    // active again: the sweep credits the reward, and the approval's message is not sent a second time
    for (const player of [frozen, banned]) await setPlayerStatus(player._id, { status: 'active' }, new Date());
    await recoverPendingEntries(0);
    await drained(running);
    const coins = await Promise.all(claims.map(async (claim) => (await UserMissionModel.findById(claim).lean())!.coin));
    expect(await Promise.all([frozen, banned].map((player, i) => balanceOf(player._id, coins[i]!)))).toEqual([
      toMicros('25'),
      toMicros('25'),
    ]);
    expect(messagesTo(frozen).map((m) => m.text)).toEqual(held);
    expect(messagesTo(banned).map((m) => m.text)).toEqual(heldFa);
  });

  it('tells a player their withdrawal was paid (with the explorer link) or rejected (with the refund)', async () => {
    const paid = await reachable();
    const refused = await reachable();
    await processWithdrawal({
      withdrawalId: await pendingWithdrawal(paid, '120'),
      review: { status: 'done', txHash: 'abc123hash' },
      accountId: reviewer,
      now: new Date(),
    });
    await processWithdrawal({
      withdrawalId: await pendingWithdrawal(refused, '80.5'),
      review: { status: 'rejected', rejectReason: 'Address is an exchange' },
      accountId: reviewer,
      now: new Date(),
    });
    await drained(running);
    expect(messagesTo(paid).map((m) => m.text)).toEqual([
      '💸 Your withdrawal of 120 GIFT was sent.\nTransaction: https://tonviewer.com/transaction/abc123hash',
    ]);
    expect(messagesTo(refused).map((m) => m.text)).toEqual([
      '↩️ Your withdrawal of 80.5 GIFT was rejected.\nReason: Address is an exchange\n80.5 GIFT went back to your balance.',
    ]);
  });

  it('tells a player when their stake unlocks and when mining is ready, not before', async () => {
    const staker = await reachable();
    const miner = await reachable();
    const coin = await createCoin({ symbol: 'GIFT' });
    await fund(staker._id, coin._id, '1000');
    const offer = await StakingCoinModel.create({
      coin: coin._id,
      minAmount: micros('10'),
      maxAmount: micros('10000'),
      profits: { week: '10' },
    });
    await stake(staker._id, { stakingCoinId: String(offer._id), amount: '100', duration: 'week', idempotencyKey: 'tap-1' }, new Date());
    const config = await getAppConfig();
    config.set({ miningCoin: coin._id, earnAmount: '240', earnDurationHours: 8 });
    await config.save();
    await startMining(miner._id, new Date());

    await drained(running);
    expect(messagesTo(staker)).toHaveLength(0);
    expect(messagesTo(miner)).toHaveLength(0);

    ahead.ms = 8 * DAY;
    await drained(running, ahead);
    expect(messagesTo(staker).map((m) => m.text)).toEqual(['🔓 Your stake of 100 GIFT has unlocked. Claim 110 GIFT in the app.']);
    expect(messagesTo(miner).map((m) => m.text)).toEqual(['⛏️ Mining finished: 240 GIFT is ready to move to your wallet.']);
    ahead.ms = 0;
  });

  it('sends nothing to a player without message permission, for any event', async () => {
    const silent = await createPlayer({ messagePermission: false });
    await reviewUserMission(await pendingManualMission(silent, 'Quiet one'), { status: 'done' }, reviewer, new Date());
    await processWithdrawal({
      withdrawalId: await pendingWithdrawal(silent, '10'),
      review: { status: 'rejected', rejectReason: 'no' },
      accountId: reviewer,
      now: new Date(),
    });
    // a scheduled one is queued, then dropped when due because the permission is still missing
    await notify(
      silent._id,
      `mining-ready:${new Types.ObjectId()}`,
      'mining-ready',
      { amount: '1', symbol: 'GIFT', sessionId: 'x' },
      new Date(),
    );
    await drained(running);
    expect(messagesTo(silent)).toHaveLength(0);
    expect(await NotificationModel.find({ user: silent._id }, { status: 1, outcome: 1 }).lean()).toEqual([
      expect.objectContaining({ status: 'skipped', outcome: 'no message permission' }),
    ]);
  });

  it("clears the message permission of a player who blocked the bot ('bot was blocked by the user')", async () => {
    const gone = await reachable();
    standIn.blocked.add(gone.telegramId);
    await notify(gone._id, `test-blocked:${gone._id}`, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: 'x' });
    await drained(running);
    expect(messagesTo(gone)).toHaveLength(0);
    expect((await UserModel.findById(gone._id).lean())!.messagePermission).toBe(false);
    expect(await NotificationModel.findOne({ key: `test-blocked:${gone._id}` }).lean()).toMatchObject({
      status: 'skipped',
      outcome: 'Forbidden: bot was blocked by the user',
    });

    // nothing more is queued for them until they start the bot again
    await notify(gone._id, `test-blocked-later:${gone._id}`, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: 'y' });
    expect(await NotificationModel.countDocuments({ key: `test-blocked-later:${gone._id}` })).toBe(0);
  });

  it('takes over a message whose sender died mid-send only after its lease ran out', async () => {
    const player = await reachable();
    const key = `test-takeover:${player._id}`;
    await notify(player._id, key, 'mining-ready', { amount: '2', symbol: 'GIFT', sessionId: 'w' });
    // another instance claimed it, then crashed before Telegram answered
    await NotificationModel.updateOne(
      { key },
      { $set: { leaseHolder: 'crashed-instance', leaseUntil: new Date(Date.now() + 10 * 60_000) }, $inc: { attempts: 1 } },
    );
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(messagesTo(player)).toHaveLength(0);

    ahead.ms = 11 * 60_000;
    await drained(running, ahead);
    ahead.ms = 0;
    expect(messagesTo(player)).toHaveLength(1);
    expect(await NotificationModel.findOne({ key }).lean()).toMatchObject({
      status: 'sent',
      attempts: 2,
      leaseHolder: expect.stringMatching(/^test-/),
    });
  });

  it('sends a message once when two instances send from the same queue', async () => {
    const player = await reachable();
    const other = sender();
    other.start();
    const keys = Array.from({ length: 3 }, (_, i) => `test-two-senders:${player._id}:${i}`);
    for (const key of keys) await notify(player._id, key, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: key });
    for (let i = 0; i < 200 && messagesTo(player).length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    await drained(running);
    await drained(other);
    other.stop();
    expect(messagesTo(player)).toHaveLength(3);
    expect(await NotificationModel.countDocuments({ key: { $in: keys }, status: 'sent' })).toBe(3);
  });
});

describe("pacing within Telegram's limits (fake timers)", () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  /** Moves the fake clock in small steps, letting real I/O (the stand-in, the database) finish between them. */
  async function advanceUntil(condition: () => boolean | Promise<boolean>, stepMs = 50, maxSteps = 10_000) {
    for (let step = 0; step < maxSteps; step++) {
      if (await condition()) return;
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      await jest.advanceTimersByTimeAsync(stepMs);
    }
    throw new Error('the condition never held');
  }

  it('retries a 429 after its retry_after', async () => {
    const player = await reachable();
    standIn.rateLimitNext.set(player.telegramId, 7);
    await notify(player._id, `test-429:${player._id}`, 'mining-ready', { amount: '3', symbol: 'GIFT', sessionId: 'z' });
    const running = sender();
    running.start();
    await advanceUntil(() => standIn.calls.some((c) => c.method === 'sendMessage' && c.params.chat_id === player.telegramId));
    const refusedAt = Date.now();
    await advanceUntil(() => messagesTo(player).length === 1);
    running.stop();
    const waited = messagesTo(player)[0]!.at - refusedAt;
    expect(standIn.calls.filter((c) => c.method === 'sendMessage' && c.params.chat_id === player.telegramId)).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(7000);
    expect(waited).toBeLessThan(8000);
  });

  it('paces a queue of 100 notifications to one chat at one a second', async () => {
    const player = await reachable();
    // messages outside the reminders' daily cap (a hundred reminders a day to one player are what issue 35 forbids)
    for (let i = 0; i < 100; i++)
      await notify(player._id, `test-pace:${player._id}:${i}`, 'mission-approved', { mission: `Mission ${i + 1}` });
    const running = sender();
    running.start();
    await advanceUntil(() => messagesTo(player).length === 100);
    const allSent = async () => (await NotificationModel.countDocuments({ user: player._id, status: 'sent' })) === 100;
    await advanceUntil(allSent);
    running.stop();
    const times = messagesTo(player).map((m) => m.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    console.log(
      `100 messages to one chat: first to last ${(times.at(-1)! - times[0]!) / 1000} s on the fake clock; gaps min ${Math.min(...gaps)} ms, max ${Math.max(...gaps)} ms`,
    );
    // the throttler starts one request a second; its arrival at the stand-in may land a millisecond either side
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(98_900);
    expect(new Set(messagesTo(player).map((m) => m.text)).size).toBe(100);
  });
});
