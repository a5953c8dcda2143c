import { Types } from 'mongoose';
import { Api } from 'grammy';
import { createPlayer } from '../../../test/factories';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger } from '../../../test/helpers';
import { pacedApi } from '../../lib/telegramBot';
import { NotificationModel } from '../notifications/notification.model';
import { notify, NotificationSender } from '../notifications/notifications.service';
import { UserModel } from '../users/user.model';
import { BroadcastModel, BroadcastPaceModel, BroadcastRecipientModel } from './broadcast.model';
import {
  BroadcastSender,
  INTERRUPTED,
  LIVE_LEASE_MS,
  MAX_ATTEMPTS,
  NOT_ACTIVE,
  reserveSlots,
  settleInterrupted,
} from './broadcastSender.service';
import { createBroadcast, failuresOf, materialise, updateBroadcast } from './broadcasts.service';

/**
 * The broadcast sender against the Bot API stand-in, on a fake clock: its waits move the clock instead of
 * taking time, so a thousand messages at 20 a second take a few real seconds, and every send is stamped with
 * the fake time it was made at.
 */
jest.setTimeout(120_000);

const OPERATOR = { id: String(new Types.ObjectId()), username: 'broadcaster' };
const APP = 'https://t.me/GiftRewardsBot/play';

let standIn: BotApiStandIn;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
});
afterAll(() => standIn.close());
beforeEach(async () => {
  standIn.sent.length = 0;
  standIn.calls.length = 0;
  standIn.blocked.clear();
  standIn.rateLimitNext.clear();
  // the pace is shared through the database: each test starts from its own fake time, and its own players
  await Promise.all(
    [BroadcastPaceModel, BroadcastModel, BroadcastRecipientModel, UserModel, NotificationModel].map(
      (model: { deleteMany: (q: object) => unknown }) => model.deleteMany({}),
    ),
  );
});

function fakeClock() {
  let now = Date.now();
  return {
    clock: () => new Date(now),
    sleep: async (ms: number) => {
      now += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    now: () => now,
  };
}

/** A sender on a plain Bot API whose calls are stamped with the fake clock's time. */
function sender(time: ReturnType<typeof fakeClock>, { rate = 20, leaseMs = 60_000 } = {}) {
  const stamps: Array<{ chat: number; at: number }> = [];
  const api = new Api(TEST_BOT_TOKEN, { apiRoot: standIn.apiRoot });
  api.config.use((prev, method, payload, signal) => {
    if (method === 'sendMessage' || method === 'sendPhoto')
      stamps.push({ chat: Number((payload as { chat_id: number }).chat_id), at: time.now() });
    return prev(method, payload, signal);
  });
  const running = new BroadcastSender({
    api: () => api,
    links: { openAppUrl: async () => APP },
    rate,
    sendingLeaseMs: leaseMs,
    holder: `test-${new Types.ObjectId()}`,
    logger: silentLogger,
    clock: time.clock,
    sleep: time.sleep,
  });
  /** Runs the sender until the broadcast is finished, then stops it. */
  const finish = async (broadcastId: Types.ObjectId) => {
    running.start();
    await until(isDone(broadcastId), 'the broadcast to finish');
    await running.stop();
  };
  return { running, stamps, finish };
}

async function players(count: number, fields: Record<string, unknown> = {}) {
  const first = 1_000_000 + Math.floor(Math.random() * 1e9);
  const docs = Array.from({ length: count }, (_, i) => ({
    telegramId: first + i,
    name: `Player ${i}`,
    referralCode: `bc${first + i}`,
    messagePermission: true,
    ...fields,
  }));
  const inserted = await UserModel.insertMany(docs);
  return inserted;
}

async function startedBroadcast(fields: Record<string, unknown> = {}) {
  const draft = await createBroadcast(
    {
      text: '<b>New missions</b> are live',
      fa: { text: '<b>ماموریت‌های تازه</b> آمدند' },
      imageUrl: '',
      button: { text: 'Open', fa: { text: 'باز کن' }, path: '/missions' },
      segment: {},
      scheduledAt: null,
      ...fields,
    },
    OPERATOR,
  );
  return updateBroadcast(String(draft._id), { status: 'sending' }, (f) => f === 'status', OPERATOR);
}

async function until(condition: () => Promise<boolean>, what: string, seconds = 60) {
  for (let i = 0; i < seconds * 20; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}
const statusOf = async (id: unknown) => (await BroadcastModel.findById(id).lean())!;
const isDone = (id: unknown) => async () => (await statusOf(id)).status === 'done';

/** The most sends inside any one second of the fake clock. */
function busiestSecond(stamps: Array<{ at: number }>): number {
  const times = stamps.map((s) => s.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

it('sends a broadcast to 1,000 players exactly once each, never faster than the configured rate', async () => {
  const audience = await players(1000);
  const other = await createPlayer({ messagePermission: false });
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const { finish, stamps } = sender(time, { rate: 20 });
  const started = time.now();
  await finish(broadcast._id);

  const chats = standIn.sent.map((m) => m.chat_id);
  expect(chats).toHaveLength(1000);
  expect(new Set(chats).size).toBe(1000);
  expect(new Set(chats)).toEqual(new Set(audience.map((p) => p.telegramId)));
  expect(chats).not.toContain(other.telegramId);
  expect(busiestSecond(stamps)).toBeLessThanOrEqual(20);
  // and not much slower either: 1,000 at 20 a second is 50 seconds of the fake clock, from the first send to the last
  // (recording the audience first takes idle rounds of its own, more of them on a loaded machine)
  const sending = stamps[stamps.length - 1]!.at - stamps[0]!.at;
  expect(sending).toBeGreaterThanOrEqual(49_000);
  expect(sending).toBeLessThan(70_000);
  expect(time.now()).toBeGreaterThanOrEqual(started + sending);
  const record = await statusOf(broadcast._id);
  expect(record).toMatchObject({ status: 'done', audience: 1000, sent: 1000, failed: 0, blocked: 0 });
  // in the player's language, with the button to the app
  const message = standIn.sent[0]!;
  expect(message).toMatchObject({ parse_mode: 'HTML', text: '<b>New missions</b> are live' });
  expect(message.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Open', url: APP }]] });
});

it('never writes to a banned or frozen player: not recorded at the start, nor sent once frozen or banned after it (finding 11)', async () => {
  const active = await players(6);
  const banned = await players(15, { status: 'banned', statusReason: 'Farm' });
  const [frozen] = await players(1, { status: 'frozen', statusReason: 'Under review' });
  const broadcast = await startedBroadcast({ segment: {} });
  expect(await materialise(broadcast._id)).toBe(6);
  // two of the audience are frozen and banned after it was recorded, before anything is sent
  await UserModel.updateOne({ _id: active[0]!._id }, { $set: { status: 'frozen', statusReason: 'Under review' } });
  await UserModel.updateOne({ _id: active[1]!._id }, { $set: { status: 'banned', statusReason: 'Farm' } });
  const time = fakeClock();
  const { finish } = sender(time);
  await finish(broadcast._id);
  const chats = standIn.sent.map((m) => m.chat_id).sort();
  expect(chats).toEqual(
    active
      .slice(2)
      .map((p) => p.telegramId)
      .sort(),
  );
  for (const player of [...banned, frozen!, active[0]!, active[1]!]) expect(chats).not.toContain(player.telegramId);
  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', audience: 6, sent: 4, failed: 2 });
  const failures = await failuresOf(String(broadcast._id));
  expect(failures.map((f: { outcome: string }) => f.outcome)).toEqual([NOT_ACTIVE, NOT_ACTIVE]);
});

it('gives each player their language, and a photo with the text as its caption', async () => {
  const [english] = await players(1, { language: 'en' });
  const [persian] = await players(1, { language: 'fa' });
  const broadcast = await startedBroadcast({ imageUrl: 'https://cdn.example/round.png', segment: {} });
  const time = fakeClock();
  const { finish } = sender(time);
  await finish(broadcast._id);
  const to = (player: { telegramId: number }) => standIn.sent.find((m) => m.chat_id === player.telegramId)!;
  expect(to(english!)).toMatchObject({
    method: 'sendPhoto',
    photo: 'https://cdn.example/round.png',
    caption: '<b>New missions</b> are live',
  });
  expect(to(persian!)).toMatchObject({ method: 'sendPhoto', caption: '<b>ماموریت‌های تازه</b> آمدند' });
  expect(to(persian!).reply_markup).toEqual({ inline_keyboard: [[{ text: 'باز کن', url: APP }]] });
});

it('waits out a storm of 429s: nothing is sent before Telegram said to, and everyone gets it once', async () => {
  const audience = await players(60);
  // every fifth player's first message answers 429 "retry after 5"
  for (const player of audience.filter((_, i) => i % 5 === 0)) standIn.rateLimitNext.set(player.telegramId, 5);
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const { finish, stamps } = sender(time, { rate: 20 });
  await finish(broadcast._id);

  const chats = standIn.sent.map((m) => m.chat_id);
  expect(chats).toHaveLength(60);
  expect(new Set(chats).size).toBe(60);
  // after each 429, no call for the 5 seconds it asked for
  const refusals = standIn.calls.filter(
    (c) => c.method === 'sendMessage' && audience.some((p, i) => i % 5 === 0 && p.telegramId === c.params.chat_id),
  );
  expect(refusals.length).toBeGreaterThanOrEqual(24);
  const times = stamps.map((s) => s.at).sort((a, b) => a - b);
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  expect(gaps.filter((gap) => gap >= 5000).length).toBeGreaterThanOrEqual(1);
  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', sent: 60, failed: 0 });
  // a 429 does not spend one of the message's tries
  const retried = await BroadcastRecipientModel.find({ broadcast: broadcast._id, telegramId: audience[0]!.telegramId }).lean();
  expect(retried[0]!.attempts).toBe(1);
});

it('a player who blocked the bot is counted as blocked and loses the message permission; other refusals are bounded', async () => {
  const audience = await players(6);
  standIn.blocked.add(audience[0]!.telegramId);
  standIn.blocked.add(audience[1]!.telegramId);
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const { finish } = sender(time);
  // Telegram answers 500 once: the message is tried again and arrives
  standIn.failNext.set('sendMessage', { status: 500, description: 'Internal Server Error' });
  await finish(broadcast._id);

  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', audience: 6, sent: 4, blocked: 2, failed: 0 });
  const permissions = await UserModel.find({ _id: { $in: audience.map((p) => p._id) } }, { messagePermission: 1, telegramId: 1 }).lean();
  expect(
    permissions
      .filter((p) => !p.messagePermission)
      .map((p) => p.telegramId)
      .sort(),
  ).toEqual([audience[0]!.telegramId, audience[1]!.telegramId].sort());
  const blocked = await BroadcastRecipientModel.findOne({ broadcast: broadcast._id, telegramId: audience[0]!.telegramId }).lean();
  expect(blocked).toMatchObject({ status: 'blocked', outcome: 'Forbidden: bot was blocked by the user' });
  // the broadcast's page lists them with the reason
  expect((await failuresOf(String(broadcast._id))).map((f) => [f.telegramId, f.status, f.outcome]).sort()).toEqual(
    [audience[0]!, audience[1]!].map((p) => [p.telegramId, 'blocked', 'Forbidden: bot was blocked by the user']).sort(),
  );
  expect(new Set(standIn.sent.map((m) => m.chat_id)).size).toBe(4);
});

it(`gives up a message Telegram keeps failing after ${MAX_ATTEMPTS} tries, with Telegram's reason`, async () => {
  const [player] = await players(1);
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const { running } = sender(time);
  const failing = setInterval(() => standIn.failNext.set('sendMessage', { status: 502, description: 'Bad Gateway' }), 1);
  running.start();
  try {
    await until(isDone(broadcast._id), 'the broadcast to finish');
  } finally {
    clearInterval(failing);
    await running.stop();
  }
  const calls = standIn.calls.filter((c) => c.method === 'sendMessage' && c.params.chat_id === player!.telegramId);
  expect(calls).toHaveLength(MAX_ATTEMPTS);
  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', failed: 1, sent: 0 });
  expect(await BroadcastRecipientModel.findOne({ broadcast: broadcast._id }).lean()).toMatchObject({
    status: 'failed',
    outcome: 'Bad Gateway',
  });
});

it('transactional notifications overtake a running broadcast', async () => {
  await players(200);
  const [waiting] = await players(1);
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const { running } = sender(time, { rate: 20 });
  const transactional = new NotificationSender({
    api: () => pacedApi({ apiRoot: standIn.apiRoot, token: TEST_BOT_TOKEN }),
    openAppUrl: async () => APP,
    holder: 'notifications',
    logger: silentLogger,
  });
  running.start();
  await until(async () => standIn.sent.length >= 40, 'the broadcast to be under way');
  await notify(waiting!._id, `overtake:${String(waiting!._id)}`, 'mission-approved', {
    mission: 'Daily check-in',
    amount: '10',
    symbol: 'GIFT',
  });
  const broadcastSentWhenQueued = standIn.sent.length;
  transactional.start();
  await until(async () => (await NotificationModel.countDocuments({ status: 'sent' })) === 1, 'the notification to be sent');
  const overtaken = standIn.sent.findIndex((m) => !String(m.text).includes('New missions'));
  transactional.stop();
  await until(isDone(broadcast._id), 'the broadcast to finish');
  await running.stop();
  // the broadcast had 160 messages to go; the notification went out within about one round of it (20)
  expect(overtaken).toBeGreaterThanOrEqual(broadcastSentWhenQueued);
  expect(overtaken - broadcastSentWhenQueued).toBeLessThanOrEqual(20 + 10);
  expect(overtaken).toBeLessThan(standIn.sent.length - 100);
});

it('pause stops sending within a round, resume goes on, cancel ends it with the rest unsent', async () => {
  await players(200);
  const broadcast = await startedBroadcast();
  const id = String(broadcast._id);
  const time = fakeClock();
  const { running } = sender(time, { rate: 20 });
  running.start();
  await until(async () => standIn.sent.length >= 30, 'the first messages');
  await updateBroadcast(id, { status: 'paused' }, (f) => f === 'status', OPERATOR);
  // what was claimed before the pause still goes: at most one round of 20 and what was in flight
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const atPause = standIn.sent.length;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(standIn.sent.length).toBe(atPause);
  expect(atPause).toBeLessThanOrEqual(30 + 20 + 10);

  await updateBroadcast(id, { status: 'sending' }, (f) => f === 'status', OPERATOR);
  await until(async () => standIn.sent.length >= atPause + 40, 'sending to resume');
  await updateBroadcast(id, { status: 'cancelled' }, (f) => f === 'status', OPERATOR);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const atCancel = standIn.sent.length;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await running.stop();
  expect(standIn.sent.length).toBe(atCancel);
  expect(atCancel).toBeLessThan(200);
  expect(new Set(standIn.sent.map((m) => m.chat_id)).size).toBe(atCancel);
  const record = await statusOf(id);
  expect(record.status).toBe('cancelled');
  expect(record.sent).toBe(atCancel);
});

it('two senders share one broadcast: each player once', async () => {
  await players(300);
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const first = sender(time, { rate: 30 });
  const second = sender(time, { rate: 30 });
  first.running.start();
  second.running.start();
  await until(isDone(broadcast._id), 'the broadcast to finish');
  await Promise.all([first.running.stop(), second.running.stop()]);
  const chats = standIn.sent.map((m) => m.chat_id);
  expect(chats).toHaveLength(300);
  expect(new Set(chats).size).toBe(300);
  // both sent a share
  expect(first.stamps.length).toBeGreaterThan(0);
  expect(second.stamps.length).toBeGreaterThan(0);
});

it('a message found mid-send after its sender stopped is counted as unknown (not failed), never sent again by itself', async () => {
  const audience = await players(3);
  const broadcast = await startedBroadcast();
  await materialise(broadcast._id);
  // the state a kill -9 leaves between marking a message and settling it
  const stale = new Date(Date.now() - 1000);
  await BroadcastRecipientModel.updateOne(
    { broadcast: broadcast._id, telegramId: audience[0]!.telegramId },
    { $set: { status: 'sending', leaseUntil: stale, leaseHolder: 'gone', attempts: 1 } },
  );
  expect(await settleInterrupted(new Date())).toBe(1);
  // settled once: a second sweep finds nothing
  expect(await settleInterrupted(new Date())).toBe(0);
  expect((await statusOf(broadcast._id)).unknown).toBe(1);
  const time = fakeClock();
  const { finish } = sender(time);
  await finish(broadcast._id);
  expect(standIn.sent.map((m) => m.chat_id).sort()).toEqual([audience[1]!.telegramId, audience[2]!.telegramId].sort());
  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', audience: 3, sent: 2, failed: 0, unknown: 1 });
  expect(await BroadcastRecipientModel.findOne({ telegramId: audience[0]!.telegramId }).lean()).toMatchObject({
    status: 'unknown',
    outcome: INTERRUPTED,
  });
  expect((await failuresOf(String(broadcast._id))).map((f) => [f.telegramId, f.status])).toEqual([[audience[0]!.telegramId, 'unknown']]);
});

it(`a live sender renews its short leases (at most ${LIVE_LEASE_MS} ms): calls slower than the lease are never taken over or counted unknown`, async () => {
  await players(12);
  const broadcast = await startedBroadcast();
  // real time here: each call takes three leases' time, so only renewals keep them; a lease long enough that a renewal
  // late by a busy CPU (another test file beside this one, on two cores) is still in time
  const leaseMs = 1_200;
  const slow = (holder: string) => {
    const api = new Api(TEST_BOT_TOKEN, { apiRoot: standIn.apiRoot });
    api.config.use(async (prev, method, payload, signal) => {
      if (method === 'sendMessage') await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs));
      return prev(method, payload, signal);
    });
    return new BroadcastSender({
      api: () => api,
      links: { openAppUrl: async () => APP },
      rate: 50,
      sendingLeaseMs: leaseMs,
      holder,
      logger: silentLogger,
    });
  };
  const senders = [slow('slow-a'), slow('slow-b')];
  senders.forEach((s) => s.start());
  await until(isDone(broadcast._id), 'the broadcast to finish');
  await Promise.all(senders.map((s) => s.stop()));
  const chats = standIn.sent.map((m) => m.chat_id);
  expect(chats).toHaveLength(12);
  expect(new Set(chats).size).toBe(12);
  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', sent: 12, failed: 0, unknown: 0 });
});

it('recording the audience again after a crash adds nobody twice', async () => {
  await players(25);
  const broadcast = await startedBroadcast();
  // a first run that stopped part-way: some recipients recorded, the broadcast not marked
  await materialise(broadcast._id);
  await BroadcastModel.updateOne({ _id: broadcast._id }, { $set: { materialisedAt: null } });
  await BroadcastRecipientModel.deleteMany({ broadcast: broadcast._id, telegramId: { $mod: [2, 0] } });
  expect(await materialise(broadcast._id)).toBe(25);
  expect(await BroadcastRecipientModel.countDocuments({ broadcast: broadcast._id })).toBe(25);
});

it('instances reserving send times at once get runs that never overlap: together they keep the one pace', async () => {
  const now = new Date();
  const starts = await Promise.all(Array.from({ length: 40 }, () => reserveSlots(10, 50, now)));
  const runs = starts.sort((a, b) => a - b);
  // forty runs of ten sends 50 ms apart: back to back from now, none sharing a moment
  expect(runs[0]).toBe(now.getTime());
  runs.slice(1).forEach((start, i) => expect(start - runs[i]!).toBe(500));
  expect((await BroadcastPaceModel.findOne().lean())!.nextAt.getTime()).toBe(now.getTime() + 40 * 500);
});

it('a sender stopped mid-round gives back what it had not sent, and another finishes it, each player once', async () => {
  await players(120);
  const broadcast = await startedBroadcast();
  const time = fakeClock();
  const first = sender(time, { rate: 20 });
  first.running.start();
  await until(async () => standIn.sent.length >= 30, 'the first messages');
  await first.running.stop();
  // nothing left mid-send, nothing held by the stopped sender
  expect(await BroadcastRecipientModel.countDocuments({ broadcast: broadcast._id, status: 'sending' })).toBe(0);
  const held = await BroadcastRecipientModel.countDocuments({ broadcast: broadcast._id, status: 'queued', leaseUntil: { $ne: null } });
  expect(held).toBe(0);
  const second = sender(time, { rate: 20 });
  second.running.start();
  await until(isDone(broadcast._id), 'the broadcast to finish');
  await second.running.stop();
  const chats = standIn.sent.map((m) => m.chat_id);
  expect(chats).toHaveLength(120);
  expect(new Set(chats).size).toBe(120);
  expect(await statusOf(broadcast._id)).toMatchObject({ status: 'done', sent: 120, failed: 0 });
});
