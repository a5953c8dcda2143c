import request from 'supertest';
import { Types } from 'mongoose';
import { REMINDER_KINDS } from '@gift/shared';
import { createPlayer, playerCaller } from '../../../test/factories';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { drained, messagesTo as messagesToPlayer, testSender } from '../../../test/notificationSenders';
import { calendarDay, dayBefore } from '../../lib/calendarDay';
import { createApp } from '../../app';
import { consoleApi, createOperator } from '../../../test/operators';
import { setAppConfigFields } from '../config/config.service';
import { countStreakDay } from '../missions/streaks';
import { takeReminderPlace } from '../users/players.service';
import { UserModel, type UserDocument } from '../users/user.model';
import { NotificationModel } from './notification.model';
import { notify, type NotificationSender } from './notifications.service';
import type { NotificationEvent, NotificationFacts } from './notificationTexts';

let standIn: BotApiStandIn;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
});
afterAll(() => standIn.close());

const messagesTo = (player: UserDocument) => messagesToPlayer(standIn, player);
const reachable = (fields: Record<string, unknown> = {}) => createPlayer({ messagePermission: true, ...fields });
const MINUTE = 60_000;
/** HH:MM on a UTC clock. */
const utcClock = (moment: number) => new Date(moment).toISOString().slice(11, 16);

/** The App Config's reminder rules for a test: no quiet hours and a cap of 3 unless it says otherwise. */
async function reminderRules(
  fields: { quietStart?: string; quietEnd?: string; dailyCap?: number; streakHoursBefore?: number } = {},
  timezone = 'UTC',
) {
  await setAppConfigFields({
    timezone,
    reminders: { quietStart: '00:00', quietEnd: '00:00', dailyCap: 3, streakHoursBefore: 4, ...fields },
  });
}

/** A reminder queued as the services queue them: due at once (`scheduledFor` makes notify leave every check to the sender). */
function remind<E extends NotificationEvent>(
  player: UserDocument,
  event: E,
  facts: NotificationFacts[E],
  id = String(new Types.ObjectId()),
) {
  return notify(player._id, `${event}:${id}`, event, facts, new Date());
}

const today = () => calendarDay(new Date(), 'UTC');
/** A player whose streak of `days` days was last kept yesterday (UTC): it breaks at the end of today. */
const streakAtRisk = (days: number) => ({ streak: { days, startDay: '2020-01-01', lastDay: dayBefore(today()) } });

const outcomesOf = async (player: UserDocument) =>
  (await NotificationModel.find({ user: player._id }, { event: 1, status: 1, outcome: 1 }).sort({ _id: 1 }).lean()).map(
    ({ event, status, outcome }) => `${event} ${status}${outcome ? `: ${outcome}` : ''}`,
  );

describe('reminders', () => {
  const ahead = { ms: 0 };
  let running: NotificationSender;
  beforeAll(() => {
    running = testSender(standIn, ahead);
    running.start();
  });
  afterAll(() => running.stop());
  beforeEach(() => reminderRules());

  it("sends each kind once, in the player's language, however often it is queued", async () => {
    const english = await reachable(streakAtRisk(5));
    const persian = await reachable({ language: 'fa', ...streakAtRisk(12) });
    for (const player of [english, persian])
      for (let repeat = 0; repeat < 2; repeat++) {
        const id = String(player._id);
        await remind(player, 'mining-ready', { amount: '240', symbol: 'GIFT', sessionId: id }, id);
        await remind(player, 'streak-ending', { days: player.streak!.days, day: today() }, `${id}:${today()}`);
        await remind(player, 'stake-unlocked', { amount: '100', symbol: 'GIFT', total: '110', stakeId: id }, id);
        await remind(player, 'prize-won', { amount: '50', symbol: 'GIFT', rank: 3 }, id);
        await remind(
          player,
          'withdrawal-paid',
          { amount: '120', symbol: 'GIFT', txHash: 'h', explorerUrl: 'https://tonviewer.com/transaction/h' },
          id,
        );
      }
    await drained(running);
    expect(
      messagesTo(english)
        .map((m) => m.text)
        .sort(),
    ).toEqual(
      [
        '⛏️ Mining finished: 240 GIFT is ready to move to your wallet.',
        '🔥 Your 5-day streak ends at midnight. Do a daily mission today to keep it.',
        '🔓 Your stake of 100 GIFT has unlocked. Claim 110 GIFT in the app.',
        "🏆 You finished #3 in this week's league and won 50 GIFT.",
        '💸 Your withdrawal of 120 GIFT was sent.\nTransaction: https://tonviewer.com/transaction/h',
      ].sort(),
    );
    expect(
      messagesTo(persian)
        .map((m) => m.text)
        .sort(),
    ).toEqual(
      [
        '⛏️ استخراج تمام شد: 240 GIFT آماده انتقال به کیف پول شماست.',
        '🔥 زنجیرهٔ ۱۲ روزهٔ شما نیمه‌شب تمام می‌شود. برای نگه داشتن آن، امروز یک ماموریت روزانه انجام دهید.',
        '🔓 استیک 100 GIFT شما از قفل آزاد شد. 110 GIFT را در برنامه دریافت کنید.',
        '🏆 شما در لیگ این هفته رتبهٔ ۳ را گرفتید و 50 GIFT بردید.',
        '💸 برداشت 120 GIFT شما ارسال شد.\nتراکنش: https://tonviewer.com/transaction/h',
      ].sort(),
    );
    // outside quiet hours every reminder comes with its sound
    expect(messagesTo(english).every((m) => m.disable_notification === undefined)).toBe(true);
  });

  it('does not send a kind the player switched off in Settings, and sends it again once switched back on', async () => {
    const player = await reachable();
    const caller = playerCaller(player);
    const before = await caller.user.reminders();
    expect(before.kinds).toEqual(REMINDER_KINDS.map((kind) => ({ kind, on: true })));
    expect(await caller.user.switchReminder({ kind: 'mining-ready', on: false })).toMatchObject({
      messagePermission: true,
      kinds: expect.arrayContaining([
        { kind: 'mining-ready', on: false },
        { kind: 'stake-unlocked', on: true },
      ]),
    });
    await expect(caller.user.switchReminder({ kind: 'friend-joined' as 'mining-ready', on: false })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });

    await remind(player, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: 'off' });
    await remind(player, 'stake-unlocked', { amount: '1', symbol: 'GIFT', total: '2', stakeId: 'on' });
    // queued now without a date: not even queued while switched off
    await notify(player._id, `mining-ready:not-queued`, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: 'x' });
    await drained(running);
    expect(messagesTo(player).map((m) => m.text)).toEqual(['🔓 Your stake of 1 GIFT has unlocked. Claim 2 GIFT in the app.']);
    expect(await outcomesOf(player)).toEqual(['mining-ready skipped: switched off by the player', 'stake-unlocked sent']);

    await caller.user.switchReminder({ kind: 'mining-ready', on: true });
    await remind(player, 'mining-ready', { amount: '3', symbol: 'GIFT', sessionId: 'on-again' });
    await drained(running);
    expect(messagesTo(player)).toHaveLength(2);
  });

  it('holds a reminder due in quiet hours until they end (App Config timezone), and sends a paid withdrawal silently', async () => {
    // quiet from an hour ago to an hour from now on Tehran's clocks (UTC+03:30)
    const tehran = Date.now() + 210 * MINUTE;
    await reminderRules({ quietStart: utcClock(tehran - 60 * MINUTE), quietEnd: utcClock(tehran + 60 * MINUTE) }, 'Asia/Tehran');
    const player = await reachable();
    await remind(player, 'mining-ready', { amount: '7', symbol: 'GIFT', sessionId: 'quiet' });
    await remind(player, 'withdrawal-paid', { amount: '9', symbol: 'GIFT', txHash: 'q' });
    await drained(running);
    expect(messagesTo(player).map((m) => [m.text, m.disable_notification])).toEqual([
      ['💸 Your withdrawal of 9 GIFT was sent.\nTransaction: q', true],
    ]);
    const held = await NotificationModel.findOne({ user: player._id, event: 'mining-ready' }).lean();
    // due when quiet hours end: the minute an hour from now; the wait is not counted as a try
    const quietEnd = Math.floor((Date.now() + 60 * MINUTE) / MINUTE) * MINUTE;
    expect(held).toMatchObject({ status: 'queued', attempts: 0 });
    expect(Math.abs(held!.dueAt.getTime() - quietEnd)).toBeLessThanOrEqual(MINUTE);

    ahead.ms = 30 * MINUTE;
    await drained(running, ahead);
    expect(messagesTo(player)).toHaveLength(1);
    ahead.ms = 62 * MINUTE;
    await drained(running, ahead);
    ahead.ms = 0;
    expect(messagesTo(player).map((m) => [m.text, m.disable_notification])).toEqual([
      ['💸 Your withdrawal of 9 GIFT was sent.\nTransaction: q', true],
      ['⛏️ Mining finished: 7 GIFT is ready to move to your wallet.', undefined],
    ]);
  });

  it('sends a player at most the daily cap of reminders under 10 sender instances at once; a prize and a payout pass it', async () => {
    const player = await reachable(streakAtRisk(3));
    for (let i = 0; i < 3; i++) {
      await remind(player, 'mining-ready', { amount: String(i + 1), symbol: 'GIFT', sessionId: String(i) });
      await remind(player, 'stake-unlocked', { amount: String(i + 1), symbol: 'GIFT', total: '1', stakeId: String(i) });
    }
    await remind(player, 'prize-won', { amount: '5', symbol: 'GIFT', rank: 1 });
    await remind(player, 'withdrawal-paid', { amount: '6', symbol: 'GIFT', txHash: 'cap' });
    running.stop();
    const senders = Array.from({ length: 10 }, () => testSender(standIn));
    senders.forEach((sender) => sender.start());
    await drained(senders);
    senders.forEach((sender) => sender.stop());
    running.start();

    const texts = messagesTo(player).map((m) => m.text);
    expect(texts.filter((text) => /Mining finished|has unlocked/.test(text))).toHaveLength(3);
    expect(texts.filter((text) => /league|withdrawal/.test(text))).toHaveLength(2);
    expect(texts).toHaveLength(5);
    expect(await NotificationModel.countDocuments({ user: player._id, outcome: 'daily cap reached' })).toBe(3);
    expect((await UserModel.findById(player._id, { reminders: 1 }).lean())!.reminders).toMatchObject({ day: today(), count: 3 });

    // the cap is a day's: the places are gone for today only
    await remind(player, 'mining-ready', { amount: '9', symbol: 'GIFT', sessionId: 'tomorrow' });
    ahead.ms = 24 * 3600_000;
    await drained(running, ahead);
    ahead.ms = 0;
    expect(messagesTo(player)).toHaveLength(6);
  });

  it('takes over a reminder whose sender died after taking its place under the cap: sent once, counted once', async () => {
    await reminderRules({ dailyCap: 1 });
    const player = await reachable();
    await remind(player, 'stake-unlocked', { amount: '4', symbol: 'GIFT', total: '5', stakeId: 'died' }, 'died');
    // another instance claimed it and took the day's only place for it, then was killed before Telegram answered
    expect(await takeReminderPlace(player._id, 'stake-unlocked:died', today(), 1)).toBe(true);
    await NotificationModel.updateOne(
      { key: 'stake-unlocked:died' },
      { $set: { leaseHolder: 'killed-instance', leaseUntil: new Date(Date.now() + 10 * MINUTE) }, $inc: { attempts: 1 } },
    );
    await remind(player, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: 'later' }, 'later');
    // the leased one is not due for this sender: wait for the other to be settled
    for (let i = 0; i < 200 && !(await NotificationModel.exists({ key: 'mining-ready:later', status: 'skipped' })); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(messagesTo(player)).toHaveLength(0);

    ahead.ms = 11 * MINUTE;
    await drained(running, ahead);
    ahead.ms = 0;
    expect(messagesTo(player).map((m) => m.text)).toEqual(['🔓 Your stake of 4 GIFT has unlocked. Claim 5 GIFT in the app.']);
    expect(await outcomesOf(player)).toEqual(['stake-unlocked sent', 'mining-ready skipped: daily cap reached']);
    expect((await UserModel.findById(player._id, { reminders: 1 }).lean())!.reminders).toMatchObject({ count: 1 });
  });

  it('sends no reminder to a frozen or banned player or one who blocked the bot, checked again when it is due', async () => {
    const frozen = await reachable();
    const banned = await reachable();
    const blocking = await reachable();
    const blocked = await createPlayer({ messagePermission: false });
    // queued while they were active and reachable; then their standing changed
    for (const player of [frozen, banned, blocking, blocked]) {
      await remind(player, 'mining-ready', { amount: '1', symbol: 'GIFT', sessionId: 'x' });
      await remind(player, 'prize-won', { amount: '1', symbol: 'GIFT', rank: 2 });
    }
    await UserModel.updateOne({ _id: frozen._id }, { $set: { status: 'frozen' } });
    await UserModel.updateOne({ _id: banned._id }, { $set: { status: 'banned' } });
    standIn.blocked.add(blocking.telegramId);
    await drained(running);

    for (const player of [frozen, banned, blocking, blocked]) expect(messagesTo(player)).toHaveLength(0);
    expect(await outcomesOf(frozen)).toEqual(['mining-ready skipped: player frozen', 'prize-won skipped: player frozen']);
    expect(await outcomesOf(banned)).toEqual(['mining-ready skipped: player banned', 'prize-won skipped: player banned']);
    expect((await outcomesOf(blocking))[0]).toBe('mining-ready skipped: Forbidden: bot was blocked by the user');
    expect(await outcomesOf(blocked)).toEqual(['mining-ready skipped: no message permission', 'prize-won skipped: no message permission']);

    // queued now without a date: a frozen player's reminder is not even queued
    await notify(frozen._id, 'prize-won:frozen-now', 'prize-won', { amount: '1', symbol: 'GIFT', rank: 1 });
    expect(await NotificationModel.exists({ key: 'prize-won:frozen-now' })).toBeNull();
  });

  it('reminds a player of a streak about to break hours before the day ends, unless they kept it that day', async () => {
    // a timezone where it is now about 08:00, so that today's evening is still ahead whenever the test runs
    const offset = ((8 - new Date().getUTCHours() + 36) % 24) - 12;
    const timezone = offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    await reminderRules({ streakHoursBefore: 3 }, timezone);
    const localToday = calendarDay(new Date(), timezone);
    const yesterday = dayBefore(localToday);
    const kept = await reachable();
    const forgot = await reachable({ language: 'fa' });
    // a streak freeze bought in the shop covers a missed day: that streak does not end at midnight
    const covered = await reachable({ streakFreezes: 1 });
    for (const player of [kept, forgot, covered]) {
      await countStreakDay({ user: player._id, day: dayBefore(yesterday) });
      await countStreakDay({ user: player._id, day: yesterday });
      // the recovery sweep counts the day again: still one reminder
      await countStreakDay({ user: player._id, day: yesterday });
    }
    await countStreakDay({ user: kept._id, day: localToday });

    const reminder = await NotificationModel.findOne({ key: `streak-ending:${forgot._id}:${localToday}` }).lean();
    const midnight = Date.parse(`${localToday}T00:00:00Z`) - offset * 3600_000 + 24 * 3600_000;
    expect(reminder!.dueAt.getTime()).toBe(midnight - 3 * 3600_000);
    expect(await NotificationModel.countDocuments({ user: { $in: [kept._id, forgot._id] }, 'facts.day': localToday })).toBe(2);

    await drained(running);
    expect(messagesTo(forgot)).toHaveLength(0);
    ahead.ms = reminder!.dueAt.getTime() - Date.now() + 1000;
    await drained(running, ahead);
    ahead.ms = 0;
    expect(messagesTo(kept)).toHaveLength(0);
    expect(messagesTo(covered)).toHaveLength(0);
    expect((await outcomesOf(covered))[0]).toBe('streak-ending skipped: a streak freeze covers the day');
    expect(messagesTo(forgot).map((m) => m.text)).toEqual([
      '🔥 زنجیرهٔ ۲ روزهٔ شما نیمه‌شب تمام می‌شود. برای نگه داشتن آن، امروز یک ماموریت روزانه انجام دهید.',
    ]);
    expect(await outcomesOf(kept)).toEqual(['streak-ending skipped: streak kept', 'streak-ending queued']);
  });
});

describe("the reminders' rules in App Config", () => {
  it('are edited in the console: quiet hours (Persian digits too), the daily cap, the streak hours; a bad one changes nothing', async () => {
    const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const api = consoleApi(app, (await createOperator()).token);
    const current = (await api.get('/app-config/current')).body;
    const reminders = { quietStart: '۲۳:۳۰', quietEnd: '07:15', dailyCap: 2, streakHoursBefore: 5 };
    const saved = await api.put('/app-config/current', { ...current, reminders });
    expect(saved.status).toBe(200);
    expect(saved.body.reminders).toEqual({ quietStart: '23:30', quietEnd: '07:15', dailyCap: 2, streakHoursBefore: 5 });

    for (const bad of [
      { ...reminders, quietStart: '24:00' },
      { ...reminders, dailyCap: -1 },
      { ...reminders, streakHoursBefore: 24 },
    ]) {
      const refused = await api.put('/app-config/current', { ...saved.body, reminders: bad });
      expect(refused.status).toBe(400);
    }
    expect((await api.get('/app-config/current')).body.reminders).toEqual(saved.body.reminders);
  });
});

describe('reminder figures', () => {
  it('shows the reminders of the last 24 hours by kind and outcome on /metrics', async () => {
    const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const figures = async () => {
      const page = (await request(app).get('/metrics').expect(200)).text;
      return (series: string) =>
        Number(
          page
            .split('\n')
            .find((line) => line.startsWith(`${series} `))
            ?.split(' ')[1] ?? 0,
        );
    };
    const before = await figures();
    const player = await reachable();
    await reminderRules({ dailyCap: 1 });
    await remind(player, 'stake-unlocked', { amount: '1', symbol: 'GIFT', total: '1', stakeId: 'a' });
    await remind(player, 'stake-unlocked', { amount: '2', symbol: 'GIFT', total: '2', stakeId: 'b' });
    const running = testSender(standIn);
    running.start();
    await drained(running);
    running.stop();
    const after = await figures();
    const grew = (series: string) => after(series) - before(series);
    expect(grew('gift_reminders_24h{kind="stake-unlocked",status="sent"}')).toBe(1);
    expect(grew('gift_reminders_24h{kind="stake-unlocked",status="skipped"}')).toBe(1);
  });
});
