import { Types } from 'mongoose';
import { createApp } from '../../app';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { AppConfigModel } from '../config/appConfig.model';
import { CategoryModel } from '../content/content.models';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { UserModel } from '../users/user.model';
import { BroadcastModel, BroadcastRecipientModel } from './broadcast.model';
import { INTERRUPTED } from './broadcastSender.service';
import { finishIfDrained, materialise, RESENT, startDueBroadcasts } from './broadcasts.service';

let standIn: BotApiStandIn;
let app: ReturnType<typeof createApp>;
/** The console API on this environment (the stand-in's Bot API and a public address unless overridden). */
const appWith = (overrides: Record<string, string> = {}) =>
  createApp({
    env: testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, PUBLIC_URL: 'https://gift.test', ...overrides }),
    logger: silentLogger,
    clientDist: '/nonexistent',
    adminDist: '/nonexistent',
  });
beforeAll(async () => {
  standIn = await startBotApiStandIn('123456789:AAHtestTokenForTheTestSuiteOnly_abcdef');
  app = appWith();
});
afterAll(() => standIn.close());
beforeEach(async () => {
  standIn.sent.length = 0;
  await Promise.all([UserModel.deleteMany({}), BroadcastModel.deleteMany({}), BroadcastRecipientModel.deleteMany({})]);
});

const DRAFT = {
  text: '<b>Payout round</b> starts today &amp; ends Friday',
  fa: { text: '<b>دور پرداخت</b> امروز شروع می‌شود' },
  button: { text: 'Open missions', fa: { text: 'ماموریت‌ها' }, path: '/missions' },
  segment: {},
};

async function operator(permissions = ['broadcasts:write'], fields: Record<string, unknown> = {}) {
  const { token, id } = await createOperator(permissions, fields);
  return { api: consoleApi(app, token), id };
}

describe('a draft', () => {
  it('is created with its English and Persian texts, and listed with its progress', async () => {
    const { api } = await operator();
    const created = await api.post('/broadcasts', DRAFT);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      text: DRAFT.text,
      fa: { text: DRAFT.fa.text },
      button: { text: 'Open missions', fa: { text: 'ماموریت‌ها' }, path: '/missions' },
      status: 'draft',
      sent: 0,
      failed: 0,
      blocked: 0,
      remaining: 0,
      expectedFinish: null,
    });
    const list = await api.get('/broadcasts', { filter: { status: 'draft' } });
    expect(list.body.map((b: { id: string }) => b.id)).toEqual([created.body.id]);
  });

  it.each([
    [{ ...DRAFT, text: '' }, 'text', 'This field is required'],
    [{ ...DRAFT, text: '<script>x</script>' }, 'text', 'Telegram does not know <script>'],
    [{ ...DRAFT, text: '<b>bold' }, 'text', '<b> is never closed'],
    [{ ...DRAFT, text: 'a < b' }, 'text', 'Write < as &lt;'],
    [{ ...DRAFT, text: '<a href="javascript:alert(1)">x</a>' }, 'text', 'A link needs href="https://…"'],
    [{ ...DRAFT, text: 'x'.repeat(4097) }, 'text', 'At most 4096 characters'],
    [{ ...DRAFT, imageUrl: 'https://cdn.example/a.png', text: 'x'.repeat(1025) }, 'text', 'at most 1024 characters'],
    [{ ...DRAFT, button: { text: 'Go', path: 'missions' } }, 'button.path', 'A page of the app, like /missions'],
    [{ ...DRAFT, imageUrl: '/demo/cover.svg' }, 'imageUrl', 'Enter a valid URL'],
    [{ ...DRAFT, segment: { language: 'de' } }, 'segment.language', ''],
    [{ ...DRAFT, segment: { activeWithinDays: 0 } }, 'segment.activeWithinDays', 'At least 1 day'],
    [{ ...DRAFT, segment: { holds: { coin: 'nope', atLeast: '5' } } }, 'segment.holds.coin', 'Invalid id'],
    [{ ...DRAFT, segment: { wallet: true } }, 'segment', ''],
  ])('%# a bad draft is refused with the field named, and nothing is saved', async (body, field, message) => {
    const { api } = await operator();
    const refused = await api.post('/broadcasts', body);
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors ?? {})).toContain(field);
    expect(refused.body.errors[field]).toContain(message);
    expect(await BroadcastModel.countDocuments()).toBe(0);
  });

  it('is deleted by nobody: it is cancelled instead', async () => {
    const { api } = await operator();
    const created = await api.post('/broadcasts', DRAFT);
    const refused = await api.delete(`/broadcasts/${created.body.id}`);
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('Cannot delete: a broadcast is kept as a record; cancel it instead');
  });
});

describe('the segment count', () => {
  it('counts only players who allow messages, narrowed by each condition', async () => {
    const { api } = await operator();
    const count = async (segment: object) => {
      const answer = await api.post('/broadcasts/count', { segment });
      expect(answer.status).toBe(200);
      return answer.body.count as number;
    };
    const DAY = 24 * 3600_000;
    const [coin, category] = await Promise.all([createCoin(), CategoryModel.create({ title: 'Social' })]);
    const mission = await MissionModel.create({ category: category._id, title: 'Join', reward: 1, coin: coin._id, verifyType: 'manual' });
    const rich = await createPlayer({ messagePermission: true, language: 'fa', lastSeenAt: new Date() });
    const idle = await createPlayer({ messagePermission: true, lastSeenAt: new Date(Date.now() - 40 * DAY) });
    const blocked = await createPlayer({ messagePermission: true, status: 'banned', statusReason: 'Farm', lastSeenAt: new Date() });
    await createPlayer({ messagePermission: false, language: 'fa' });
    await fund(rich._id, coin._id, '500');
    await fund(idle._id, coin._id, '20');
    await UserMissionModel.create({
      user: idle._id,
      mission: mission._id,
      category: category._id,
      coin: coin._id,
      reward: 1,
      status: 'done',
    });
    // straight to the collection: mongoose keeps createdAt as it was made
    await UserModel.collection.updateMany({ _id: { $in: [blocked._id, idle._id] } }, { $set: { createdAt: new Date('2026-01-15') } });

    // the banned player is never counted (issue 32, finding 11: it once was, in every segment)
    expect(await count({})).toBe(2);
    expect(await count({ language: 'fa' })).toBe(1);
    expect(await count({ activeWithinDays: 7 })).toBe(1);
    expect(await count({ inactiveForDays: 30 })).toBe(1);
    expect(await count({ holds: { coin: coin.id, atLeast: '100' } })).toBe(1);
    expect(await count({ holds: { coin: coin.id, atLeast: '20' } })).toBe(2);
    expect(await count({ mission: { id: String(mission._id), done: true } })).toBe(1);
    expect(await count({ mission: { id: String(mission._id), done: false } })).toBe(1);
    expect(await count({ joinedFrom: '2026-01-01', joinedTo: '2026-02-01' })).toBe(1);
    expect(await count({ status: 'active', activeWithinDays: 7, holds: { coin: coin.id, atLeast: '1' } })).toBe(1);
  });
});

describe('the attacks on broadcasts (findings 11 and 15), each refused', () => {
  it('never counts or records banned or frozen players, whatever the segment, and refuses a segment naming them', async () => {
    const { api } = await operator();
    await Promise.all([
      ...Array.from({ length: 15 }, () => createPlayer({ messagePermission: true, status: 'banned', statusReason: 'Farm' })),
      createPlayer({ messagePermission: true, status: 'frozen', statusReason: 'Under review' }),
      ...Array.from({ length: 3 }, () => createPlayer({ messagePermission: true })),
    ]);
    // "every player who allows messages"
    expect((await api.post('/broadcasts/count', { segment: {} })).body.count).toBe(3);
    for (const status of ['banned', 'frozen']) {
      const refused = await api.post('/broadcasts/count', { segment: { status } });
      expect([refused.status, refused.body.errors]).toEqual([400, { 'segment.status': 'Banned and frozen players receive no broadcasts' }]);
      const draft = await api.post('/broadcasts', { ...DRAFT, segment: { status } });
      expect([draft.status, draft.body.errors]).toEqual([400, { 'segment.status': 'Banned and frozen players receive no broadcasts' }]);
    }
    expect(await BroadcastModel.countDocuments()).toBe(0);
    // a segment saved before the rule (straight to the collection) still reaches the active players only
    const { body: saved } = await api.post('/broadcasts', DRAFT);
    await BroadcastModel.collection.updateOne({ _id: new Types.ObjectId(String(saved.id)) }, { $set: { segment: { status: 'banned' } } });
    expect((await api.put(`/broadcasts/${saved.id}`, { status: 'sending' })).status).toBe(200);
    expect(await materialise(saved.id as string)).toBe(0);
  });

  it('refuses a time in the past, on a new draft, an edit, or the start of a draft whose time has passed', async () => {
    const { api } = await operator();
    const past = new Date(Date.now() - 60_000).toISOString();
    const message = { scheduledAt: 'Choose a time in the future, or none to send at once' };
    const created = await api.post('/broadcasts', { ...DRAFT, scheduledAt: past });
    expect([created.status, created.body.errors]).toEqual([400, message]);
    expect(await BroadcastModel.countDocuments()).toBe(0);

    const { body: draft } = await api.post('/broadcasts', { ...DRAFT, scheduledAt: new Date(Date.now() + 3600_000).toISOString() });
    const edited = await api.put(`/broadcasts/${draft.id}`, { scheduledAt: past, status: 'sending' });
    expect([edited.status, edited.body.errors]).toEqual([400, message]);
    // its time passes while it waits as a draft: starting it is refused too, and it stays a draft with its time
    await BroadcastModel.updateOne({ _id: draft.id }, { $set: { scheduledAt: new Date(past) } });
    const started = await api.put(`/broadcasts/${draft.id}`, { status: 'sending' });
    expect([started.status, started.body.errors]).toEqual([400, message]);
    expect(await BroadcastModel.findById(draft.id).lean()).toMatchObject({ status: 'draft', scheduledAt: new Date(past), startedAt: null });
    // no time at all sends at once
    expect((await api.put(`/broadcasts/${draft.id}`, { scheduledAt: null, status: 'sending' })).body.status).toBe('sending');
  });
});

describe('sending a test', () => {
  it("goes to the operator's own Telegram, in English and in Persian, as players will get it", async () => {
    const { api } = await operator(['broadcasts:write'], { telegramId: 777001 });
    const created = await api.post('/broadcasts', DRAFT);
    const tested = await api.post(`/broadcasts/${created.body.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ languages: ['en', 'fa'] });
    expect(standIn.sent.map((m) => [m.chat_id, m.text])).toEqual([
      [777001, DRAFT.text],
      [777001, DRAFT.fa.text],
    ]);
    // the button opens the mini app at the page it names
    expect(standIn.sent[0]!.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Open missions', web_app: { url: 'https://gift.test/missions' } }]],
    });
    expect(standIn.sent[1]!.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'ماموریت‌ها', web_app: { url: 'https://gift.test/missions' } }]],
    });
    // a test changes nothing of the broadcast
    expect((await api.get(`/broadcasts/${created.body.id}`)).body).toMatchObject({ status: 'draft', sent: 0 });
  });

  it("says whether a button opens its page; without PUBLIC_URL the button opens the app's home through its t.me link", async () => {
    const { token } = await createOperator(['broadcasts:write'], { telegramId: 777005 });
    const withAddress = await consoleApi(app, token).get('/broadcasts/button-target');
    expect(withAddress.body).toEqual({ hasPublicUrl: true });

    const noAddress = appWith({ PUBLIC_URL: '' });
    try {
      await AppConfigModel.updateOne({ key: 'app' }, { $set: { botUsername: 'gift_bot', miniAppName: 'app' } }, { upsert: true });
      const api = consoleApi(noAddress, token);
      expect((await api.get('/broadcasts/button-target')).body).toEqual({ hasPublicUrl: false });
      const { body: draft } = await api.post('/broadcasts', DRAFT);
      await api.post(`/broadcasts/${draft.id}/test`).expect(200);
      // the page the button names (/missions) is lost: what the form tells the operator
      expect(standIn.sent[0]!.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Open missions', url: 'https://t.me/gift_bot/app' }]] });
    } finally {
      // the broadcasts' settings are the app's: give them back to this file's app
      appWith();
    }
    // an operator without the broadcasts permission learns nothing of it
    const other = await createOperator(['users:read']);
    expect((await consoleApi(app, other.token).get('/broadcasts/button-target')).status).toBe(403);
  });

  it('asks for the Telegram id first, and passes on what Telegram refused', async () => {
    const without = await operator();
    const created = await without.api.post('/broadcasts', DRAFT);
    const refused = await without.api.post(`/broadcasts/${created.body.id}/test`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Add your Telegram id to your account first (and press Start in the bot)');

    const blockedOperator = await operator(['broadcasts:write'], { telegramId: 777002 });
    standIn.blocked.add(777002);
    const blocked = await blockedOperator.api.post(`/broadcasts/${created.body.id}/test`);
    expect(blocked.status).toBe(502);
    expect(blocked.body.message).toBe('Telegram refused the message: Forbidden: bot was blocked by the user');
    expect(standIn.sent).toHaveLength(0);
  });
});

describe('starting, pausing, resuming and cancelling', () => {
  it('moves the broadcast by PUT {status}, refuses what its state does not allow, and audits each step with the text as sent', async () => {
    const { api } = await operator();
    const { body: draft } = await api.post('/broadcasts', DRAFT);
    const put = (body: object) => api.put(`/broadcasts/${draft.id}`, body);

    const started = await put({ status: 'sending' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'sending', startedAt: expect.any(String) });
    const edit = await put({ text: 'changed' });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('This broadcast is sending: it cannot be edited');
    expect((await put({ status: 'paused' })).body.status).toBe('paused');
    expect((await put({ status: 'sending' })).body.status).toBe('sending');
    expect((await put({ status: 'cancelled' })).body).toMatchObject({ status: 'cancelled', finishedAt: expect.any(String) });
    const again = await put({ status: 'sending' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This broadcast is cancelled: it cannot be started');
    const bad = await put({ status: 'done' });
    expect(bad.status).toBe(400);

    const audit = await AuditEntryModel.find({ resource: 'broadcasts', record: draft.id }).sort({ createdAt: 1, _id: 1 }).lean();
    expect(audit.map((a) => [a.action, a.note, (a.after as { status?: string } | null)?.status ?? null])).toEqual([
      ['create', '', 'draft'],
      ['update', 'started: the message as sent', null],
      ['update', '', 'sending'],
      ['update', '', 'paused'],
      ['update', '', 'sending'],
      ['update', '', 'cancelled'],
    ]);
    expect(audit[1]!.after).toMatchObject({ text: DRAFT.text, fa: { text: DRAFT.fa.text } });
  });

  it('150 simultaneous starts start it once', async () => {
    const { api } = await operator();
    const { body: draft } = await api.post('/broadcasts', DRAFT);
    const answers = await Promise.all(Array.from({ length: 150 }, () => api.put(`/broadcasts/${draft.id}`, { status: 'sending' })));
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect((await BroadcastModel.findById(draft.id).lean())!.status).toBe('sending');
    expect(await AuditEntryModel.countDocuments({ resource: 'broadcasts', record: draft.id, note: 'started: the message as sent' })).toBe(
      1,
    );
  });

  it('a start with a time in the future schedules it, and it starts when the time comes', async () => {
    const { api } = await operator();
    const at = new Date(Date.now() + 3600_000);
    const { body: draft } = await api.post('/broadcasts', { ...DRAFT, scheduledAt: at.toISOString() });
    const scheduled = await api.put(`/broadcasts/${draft.id}`, { status: 'sending' });
    expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduledAt: at.toISOString() });
    expect(await startDueBroadcasts(new Date())).toBe(0);
    expect(await startDueBroadcasts(new Date(at.getTime() + 1))).toBe(1);
    expect((await BroadcastModel.findById(draft.id).lean())!.status).toBe('sending');
  });

  it('an edit of a scheduled broadcast takes it back to a draft, to be started again', async () => {
    const { api } = await operator();
    const at = new Date(Date.now() + 3600_000).toISOString();
    const { body: draft } = await api.post('/broadcasts', { ...DRAFT, scheduledAt: at });
    expect((await api.put(`/broadcasts/${draft.id}`, { status: 'sending' })).body.status).toBe('scheduled');
    const edited = await api.put(`/broadcasts/${draft.id}`, { text: 'Round two opens tomorrow', scheduledAt: null });
    expect(edited.body).toMatchObject({ status: 'draft', text: 'Round two opens tomorrow', scheduledAt: null });
    // started again, the audit holds the message as it now goes out
    expect((await api.put(`/broadcasts/${draft.id}`, { status: 'sending' })).body.status).toBe('sending');
    const notes = await AuditEntryModel.find({ resource: 'broadcasts', record: draft.id, note: { $ne: '' } })
      .sort({ createdAt: 1, _id: 1 })
      .lean();
    expect(notes.map((a) => [a.note, (a.after as { text: string }).text])).toEqual([
      ['scheduled: the message as it will be sent', DRAFT.text],
      ['started: the message as sent', 'Round two opens tomorrow'],
    ]);
  });
});

describe('permissions', () => {
  it('broadcasts are their own permission: read shows them, only write creates, counts, tests or starts', async () => {
    const writer = await operator();
    const { body: draft } = await writer.api.post('/broadcasts', DRAFT);
    const reader = await operator(['broadcasts:read'], { telegramId: 777003 });
    expect((await reader.api.get('/broadcasts')).status).toBe(200);
    expect((await reader.api.post('/broadcasts', DRAFT)).status).toBe(403);
    expect((await reader.api.post('/broadcasts/count', { segment: {} })).status).toBe(403);
    expect((await reader.api.post(`/broadcasts/${draft.id}/test`)).status).toBe(403);
    expect((await reader.api.put(`/broadcasts/${draft.id}`, { status: 'sending' })).status).toBe(403);
    const support = await operator(['users:write']);
    expect((await support.api.get('/broadcasts')).status).toBe(403);
    expect((await support.api.get(`/broadcasts/${draft.id}/failures`)).status).toBe(403);
    expect(standIn.sent).toHaveLength(0);
    expect((await BroadcastModel.findById(draft.id).lean())!.status).toBe('draft');
  });

  it('without a bot token, a start and a test are refused with what to do, and nothing moves', async () => {
    const noBot = appWith({ TELEGRAM_BOT_TOKEN: '' });
    try {
      const { token } = await createOperator(['broadcasts:write'], { telegramId: 777004 });
      const api = consoleApi(noBot, token);
      const { body: draft } = await api.post('/broadcasts', DRAFT);
      for (const refused of [
        await api.put(`/broadcasts/${draft.id}`, { status: 'sending' }),
        await api.post(`/broadcasts/${draft.id}/test`),
      ]) {
        expect(refused.status).toBe(409);
        expect(refused.body.message).toBe('Save the bot token in App Config first: the bot sends broadcasts');
      }
      expect((await BroadcastModel.findById(draft.id).lean())!.status).toBe('draft');
      expect(standIn.sent).toHaveLength(0);
    } finally {
      // the broadcasts' settings are the app's: give them back to this file's app
      appWith();
    }
  });

  it('a record that does not exist is not found', async () => {
    const { api } = await operator();
    const missing = String(new Types.ObjectId());
    expect((await api.put(`/broadcasts/${missing}`, { status: 'sending' })).status).toBe(404);
    expect((await api.post(`/broadcasts/${missing}/test`)).status).toBe(404);
  });
});

describe('resending to the players whose outcome is unknown', () => {
  /** A started broadcast to `count` players that finished with the first `unknown` of them caught mid-send by a dead sender. */
  async function finishedWithUnknown(api: Awaited<ReturnType<typeof operator>>['api'], count: number, unknown: number) {
    const players = await Promise.all(Array.from({ length: count }, () => createPlayer({ messagePermission: true })));
    const { body: draft } = await api.post('/broadcasts', DRAFT);
    await api.put(`/broadcasts/${draft.id}`, { status: 'sending' });
    await materialise(draft.id);
    const recipients = await BroadcastRecipientModel.find({ broadcast: draft.id }).sort({ _id: 1 }).lean();
    for (const [i, recipient] of recipients.entries()) {
      await BroadcastRecipientModel.updateOne(
        { _id: recipient._id },
        i < unknown
          ? { $set: { status: 'unknown', outcome: INTERRUPTED, attempts: 1, leaseHolder: 'dead#1' } }
          : { $set: { status: 'sent', attempts: 1, sentAt: new Date() } },
      );
    }
    expect(await finishIfDrained(draft.id, new Date())).toBe(true);
    return { id: draft.id as string, players };
  }

  it('shows the unknown ones apart, requeues only them, once, audited, and sends it again', async () => {
    const { api } = await operator();
    const { id } = await finishedWithUnknown(api, 5, 2);
    const shown = await api.get(`/broadcasts/${id}`);
    expect(shown.body).toMatchObject({ status: 'done', audience: 5, sent: 3, failed: 0, blocked: 0, unknown: 2, remaining: 0 });
    expect((await api.get(`/broadcasts/${id}/failures`)).body.map((f: { status: string }) => f.status)).toEqual(['unknown', 'unknown']);

    const resent = await api.post(`/broadcasts/${id}/resend-unknown`, {});
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id, status: 'sending', requeued: 2, sent: 3, unknown: 0, remaining: 2, finishedAt: null });
    const queued = await BroadcastRecipientModel.find({ broadcast: id, status: 'queued' }).lean();
    expect(queued).toHaveLength(2);
    expect(queued.every((r) => r.attempts === 0 && r.outcome === RESENT && r.leaseHolder === '')).toBe(true);
    expect(await BroadcastRecipientModel.countDocuments({ broadcast: id, status: 'sent' })).toBe(3);
    const audit = await AuditEntryModel.find({ resource: 'broadcasts', record: id, note: /whose outcome was unknown/ }).lean();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.note).toBe('resent to the 2 players whose outcome was unknown: each may get it twice');
    expect(audit[0]!.after).toMatchObject({ status: 'sending', requeued: 2 });

    // pressed again while it sends: refused, nothing moves
    const again = await api.post(`/broadcasts/${id}/resend-unknown`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This broadcast is sending: it cannot be resent to the players whose outcome is unknown');
    expect(await BroadcastRecipientModel.countDocuments({ broadcast: id, status: 'queued' })).toBe(2);
  });

  it('two presses at once (and twenty) requeue once and audit once', async () => {
    const { api } = await operator();
    const { id } = await finishedWithUnknown(api, 4, 3);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post(`/broadcasts/${id}/resend-unknown`, {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    expect(answers.find((a) => a.status === 200)!.body.requeued).toBe(3);
    expect(await BroadcastRecipientModel.countDocuments({ broadcast: id, status: 'queued' })).toBe(3);
    expect(await AuditEntryModel.countDocuments({ resource: 'broadcasts', record: id, note: /whose outcome was unknown/ })).toBe(1);
    expect((await BroadcastModel.findById(id).lean())!.status).toBe('sending');
  });

  it('is refused (409) before the broadcast is finished, and when none is unknown; nothing moves', async () => {
    const { api } = await operator();
    const { body: draft } = await api.post('/broadcasts', DRAFT);
    const early = await api.post(`/broadcasts/${draft.id}/resend-unknown`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('This broadcast is draft: it cannot be resent to the players whose outcome is unknown');
    await api.put(`/broadcasts/${draft.id}`, { status: 'sending' });
    expect((await api.post(`/broadcasts/${draft.id}/resend-unknown`, {})).status).toBe(409);
    expect((await BroadcastModel.findById(draft.id).lean())!.status).toBe('sending');

    const { id } = await finishedWithUnknown(api, 3, 0);
    const none = await api.post(`/broadcasts/${id}/resend-unknown`, {});
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(
      'This broadcast is done with no outcome unknown: it cannot be resent to the players whose outcome is unknown',
    );
    expect(await BroadcastModel.findById(id).lean()).toMatchObject({ status: 'done', sent: 3, unknown: 0 });
    expect(
      await AuditEntryModel.countDocuments({ resource: 'broadcasts', record: { $in: [draft.id, id] }, note: /whose outcome was unknown/ }),
    ).toBe(0);
  });

  it('needs the broadcasts write permission, a well-formed id, an existing broadcast and a bot', async () => {
    const writer = await operator();
    const { id } = await finishedWithUnknown(writer.api, 2, 1);
    const reader = await operator(['broadcasts:read']);
    expect((await reader.api.post(`/broadcasts/${id}/resend-unknown`, {})).status).toBe(403);
    const support = await operator(['users:write']);
    expect((await support.api.post(`/broadcasts/${id}/resend-unknown`, {})).status).toBe(403);
    const malformed = await writer.api.post('/broadcasts/not-an-id/resend-unknown', {});
    expect(malformed.status).toBe(400);
    expect((await writer.api.post(`/broadcasts/${String(new Types.ObjectId())}/resend-unknown`, {})).status).toBe(404);
    const noBot = appWith({ TELEGRAM_BOT_TOKEN: '' });
    try {
      const { token } = await createOperator(['broadcasts:write']);
      const refused = await consoleApi(noBot, token).post(`/broadcasts/${id}/resend-unknown`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('Save the bot token in App Config first: the bot sends broadcasts');
    } finally {
      appWith();
    }
    expect(await BroadcastModel.findById(id).lean()).toMatchObject({ status: 'done', unknown: 1 });
    expect(await BroadcastRecipientModel.countDocuments({ broadcast: id, status: 'unknown' })).toBe(1);
  });
});
