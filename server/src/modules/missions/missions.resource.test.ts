import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { CategoryModel } from '../content/content.models';
import { AuditEntryModel } from '../audit/audit.model';
import { MissionModel, UserMissionModel } from './mission.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const MISSING = '0123456789abcdef01234567';

describe('missions in the console', () => {
  let api: ReturnType<typeof consoleApi>;
  let base: () => Record<string, unknown>;
  beforeAll(async () => {
    api = consoleApi(app, (await createOperator(['missions:write'])).token);
    const coin = String((await createCoin())._id);
    const category = String((await CategoryModel.create({ title: 'Videos' }))._id);
    base = () => ({ category, coin, title: 'Watch the video', reward: '1', verifyType: 'youtube', link: 'https://youtu.be/abc' });
  });
  const stored = async (id: string) => (await MissionModel.findById(id).select('+secretCode').lean())!.secretCode;

  it('takes a secret code but never shows it, and a blank one on edit keeps it', async () => {
    const created = await api.post('/missions', { ...base(), secretCode: 'OPEN-SESAME' });
    expect(created.status).toBe(201);
    expect(created.body.secretCodeSet).toBe(true);
    for (const res of [
      created,
      await api.get(`/missions/${created.body.id}`),
      await api.get('/missions', { filter: { id: [created.body.id] } }),
    ]) {
      expect(JSON.stringify(res.body)).not.toContain('OPEN-SESAME');
      expect(JSON.stringify(res.body)).not.toContain('"secretCode"');
    }
    const edited = await api.put(`/missions/${created.body.id}`, { ...created.body, title: 'Watch it again', secretCode: '' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Watch it again', secretCodeSet: true });
    expect(await stored(created.body.id)).toBe('OPEN-SESAME');
    expect((await api.put(`/missions/${created.body.id}`, { ...created.body, secretCode: null })).status).toBe(200);
    expect(await stored(created.body.id)).toBe('OPEN-SESAME');
    await api.put(`/missions/${created.body.id}`, { ...created.body, secretCode: 'NEW-CODE' });
    expect(await stored(created.body.id)).toBe('NEW-CODE');
  });

  it('needs a secret code for a YouTube mission, typed now or saved before', async () => {
    const before = await MissionModel.countDocuments();
    const none = await api.post('/missions', base());
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual({ secretCode: 'A YouTube mission needs its secret code' });
    expect(await MissionModel.countDocuments()).toBe(before);

    const auto = await api.post('/missions', { ...base(), verifyType: 'auto' });
    const toYoutube = await api.put(`/missions/${auto.body.id}`, { ...auto.body, verifyType: 'youtube', secretCode: '' });
    expect(toYoutube.status).toBe(400);
    expect(toYoutube.body.errors).toEqual({ secretCode: 'A YouTube mission needs its secret code' });
    expect((await api.get(`/missions/${auto.body.id}`)).body.verifyType).toBe('auto');
  });

  it('refuses a category or coin that does not exist, naming the field, and writes nothing', async () => {
    const before = await MissionModel.countDocuments();
    const category = await api.post('/missions', { ...base(), verifyType: 'auto', category: MISSING });
    expect(category.status).toBe(400);
    expect(category.body.errors).toEqual({ category: 'Choose an existing category' });
    const coin = await api.post('/missions', { ...base(), verifyType: 'auto', coin: MISSING });
    expect(coin.body.errors).toEqual({ coin: 'Choose an existing gift coin' });
    expect(await MissionModel.countDocuments()).toBe(before);
  });

  it('checks the rules of each verify type', async () => {
    const before = await MissionModel.countDocuments();
    const linkProblem =
      'Use the public link of the channel or group (https://t.me/name), or an invite link (https://t.me/+…) with its chat id';
    // links the claim check could never use: every claim would answer "not configured"
    for (const link of ['https://example.com/channel', 'https://t.me/joinchat/AAAAAEkK', 'https://t.me/name.x', 'http://t.me/giftnews']) {
      const telegram = await api.post('/missions', { ...base(), verifyType: 'telegram', link });
      expect([link, telegram.status, telegram.body.errors]).toEqual([link, 400, { link: linkProblem }]);
    }
    const inviteForm = { ...base(), verifyType: 'telegram', link: 'https://t.me/+AbCdEf123456' };
    const invite = await api.post('/missions', inviteForm);
    expect(invite.body.errors).toEqual({
      telegramChatId: 'An invite link needs the chat id the bot sees there, for example -1001234567890',
    });
    const badId = await api.post('/missions', { ...inviteForm, telegramChatId: 'abc' });
    expect(badId.body.errors).toEqual({ telegramChatId: 'A chat id is a number, for example -1001234567890' });
    expect(await MissionModel.countDocuments()).toBe(before);
    for (const [link, telegramChatId] of [
      ['https://t.me/giftnews', ''],
      ['https://t.me/giftnews/42', ''],
      ['https://t.me/+AbCdEf123456', '-1001234567890'],
    ]) {
      const saved = await api.post('/missions', { ...base(), verifyType: 'telegram', link, telegramChatId });
      expect([link, saved.status]).toEqual([link, 201]);
    }
    const time = await api.post('/missions', { ...base(), verifyType: 'time', verifyDuration: 0 });
    expect(time.body.errors).toEqual({ verifyDuration: 'Set how many minutes to wait before claiming' });
  });

  it('keeps the Persian texts beside the English ones, each checked on its own field', async () => {
    const fa = { title: 'عضو کانال شوید', description: 'اخبار ما', claimButton: 'بررسی', goButton: 'برو' };
    const saved = await api.post('/missions', { ...base(), verifyType: 'auto', fa });
    expect([saved.status, saved.body.fa]).toEqual([201, fa]);
    const tooLong = await api.put(`/missions/${saved.body.id}`, { ...saved.body, fa: { ...fa, claimButton: 'ب'.repeat(31) } });
    expect(tooLong.body.errors).toEqual({ 'fa.claimButton': expect.stringMatching(/30/) });
    expect((await api.get(`/missions/${saved.body.id}`)).body.fa).toEqual(fa);
  });

  it('enables and disables missions in bulk, auditing each that changed, and refuses a reader or a bad body', async () => {
    const [a, b, c] = await Promise.all(
      ['Bulk A', 'Bulk B', 'Bulk C'].map((title, i) => api.post('/missions', { ...base(), verifyType: 'auto', title, enabled: i !== 2 })),
    );
    const ids = [a!.body.id, b!.body.id, c!.body.id];
    const off = await api.post('/missions/enabled', { ids, enabled: false });
    expect(off.body).toEqual({ changed: [a!.body.id, b!.body.id] });
    expect(await MissionModel.countDocuments({ _id: { $in: ids }, enabled: false })).toBe(3);
    expect(await AuditEntryModel.countDocuments({ resource: 'missions', record: { $in: ids }, action: 'update' })).toBe(2);
    expect((await api.post('/missions/enabled', { ids, enabled: true })).body.changed).toHaveLength(3);

    const bad = await api.post('/missions/enabled', { ids: [], enabled: 'yes' });
    expect([bad.status, bad.body.errors]).toEqual([
      400,
      { ids: 'Choose missions', enabled: 'Invalid input: expected boolean, received string' },
    ]);
    const reader = consoleApi(app, (await createOperator(['missions:read'])).token);
    expect((await reader.post('/missions/enabled', { ids, enabled: false })).status).toBe(403);
    expect(await MissionModel.countDocuments({ _id: { $in: ids }, enabled: true })).toBe(3);
  });

  it('keeps start and end times, a cap and a daily repeat, refusing each bad one on its field and saving nothing', async () => {
    const fields = { startsAt: '2026-12-01T08:00:00.000Z', endsAt: '2026-12-08T08:00:00.000Z', cap: 1000, repeat: 'daily' };
    const saved = await api.post('/missions', { ...base(), verifyType: 'auto', ...fields });
    expect([saved.status, saved.body]).toEqual([201, expect.objectContaining({ ...fields, completions: 0 })]);
    expect(saved.body).not.toHaveProperty('placeKeys');
    // the console sends back what it read, completions included: the count is not the form's to change
    const edited = await api.put(`/missions/${saved.body.id}`, { ...saved.body, completions: 5, cap: '', endsAt: null });
    expect(edited.body).toMatchObject({ cap: null, endsAt: null, completions: 0 });

    const before = await MissionModel.countDocuments();
    const bad = await api.post('/missions', {
      ...base(),
      verifyType: 'auto',
      cap: 0,
      repeat: 'weekly',
    });
    expect([bad.status, bad.body.errors]).toEqual([
      400,
      { cap: 'At least 1, or empty for no limit', repeat: expect.stringMatching(/none|daily/) },
    ]);
    const backwards = await api.post('/missions', {
      ...base(),
      verifyType: 'auto',
      startsAt: '2026-12-08T08:00:00.000Z',
      endsAt: '2026-12-01T08:00:00.000Z',
    });
    expect(backwards.body.errors).toEqual({ endsAt: 'The end must come after the start' });
    const notADate = await api.post('/missions', { ...base(), verifyType: 'auto', startsAt: 'next week', cap: 2.5 });
    expect(notADate.body.errors).toEqual({ startsAt: 'Enter a date and time', cap: 'Must be a whole number' });
    expect(await MissionModel.countDocuments()).toBe(before);
  });

  it("reorders a category's missions as dragged, auditing each that moved, and refuses an order made on a stale list", async () => {
    const category = String((await CategoryModel.create({ title: 'Dragged' }))._id);
    const made = await Promise.all(
      ['First', 'Second', 'Third'].map((title, order) => api.post('/missions', { ...base(), category, verifyType: 'auto', title, order })),
    );
    const [first, second, third] = made.map((m) => m.body.id as string);
    const moved = await api.post('/missions/reorder', { category, ids: [third, first, second] });
    expect([moved.status, moved.body.changed]).toEqual([200, [third, first, second]]);
    const titles = async () =>
      (await api.get('/missions', { filter: { category }, sort: ['order', 'ASC'] })).body.map((m: { title: string }) => m.title);
    expect(await titles()).toEqual(['Third', 'First', 'Second']);
    expect(
      await AuditEntryModel.countDocuments({ resource: 'missions', record: { $in: moved.body.changed as string[] }, action: 'update' }),
    ).toBe((moved.body.changed as string[]).length);

    const stale = await api.post('/missions/reorder', { category, ids: [second, first] });
    expect([stale.status, stale.body.errors]).toEqual([
      400,
      { ids: 'The missions of this category changed: reload the list and drag again' },
    ]);
    const twice = await api.post('/missions/reorder', { category, ids: [first, first, second] });
    expect(twice.body.errors).toEqual({ ids: 'Each mission once' });
    expect(await titles()).toEqual(['Third', 'First', 'Second']);
    const reader = consoleApi(app, (await createOperator(['missions:read'])).token);
    expect((await reader.post('/missions/reorder', { category, ids: [first, second, third] })).status).toBe(403);
  });

  it('sorts missions by their completions', async () => {
    const category = String((await CategoryModel.create({ title: 'Sorted' }))._id);
    const made = await Promise.all(
      ['Few', 'Many', 'None'].map((title) => api.post('/missions', { ...base(), category, verifyType: 'auto', title })),
    );
    await MissionModel.updateOne({ _id: made[0]!.body.id }, { $set: { completions: 3 } });
    await MissionModel.updateOne({ _id: made[1]!.body.id }, { $set: { completions: 40 } });
    const sorted = await api.get('/missions', { filter: { category }, sort: ['completions', 'DESC'] });
    expect(sorted.body.map((m: { title: string; completions: number }) => [m.title, m.completions])).toEqual([
      ['Many', 40],
      ['Few', 3],
      ['None', 0],
    ]);
  });

  it('searches title and description, filters and sorts by reward', async () => {
    const category = String((await CategoryModel.create({ title: 'Filter me' }))._id);
    const make = (title: string, reward: string, extra: Record<string, unknown> = {}) =>
      api.post('/missions', { ...base(), category, verifyType: 'auto', title, reward, ...extra });
    await make('Zephyr small', '0.5');
    await make('Zephyr big', '10', { mustDone: true });
    await make('Plain', '3', { description: 'about zephyr winds', enabled: false });
    const titles = (res: { body: Array<{ title: string }> }) => res.body.map((m) => m.title);
    expect(titles(await api.get('/missions', { filter: { q: 'zephyr' }, sort: ['reward', 'DESC'] }))).toEqual([
      'Zephyr big',
      'Plain',
      'Zephyr small',
    ]);
    expect(titles(await api.get('/missions', { filter: { category, mustDone: true } }))).toEqual(['Zephyr big']);
    expect(titles(await api.get('/missions', { filter: { category, enabled: false, verifyType: 'auto' } }))).toEqual(['Plain']);
    expect((await api.get('/missions', { filter: { category, verifyType: 'youtube' } })).body).toEqual([]);
  });

  it('deletes an unused mission, but refuses one players have progress on (disable it instead)', async () => {
    const unused = await api.post('/missions', { ...base(), verifyType: 'auto' });
    expect((await api.delete(`/missions/${unused.body.id}`)).status).toBe(200);
    expect(await MissionModel.exists({ _id: unused.body.id })).toBeNull();

    const used = await api.post('/missions', { ...base(), verifyType: 'auto' });
    const player = await createPlayer();
    await UserMissionModel.create({
      user: player._id,
      mission: used.body.id,
      category: used.body.category,
      coin: used.body.coin,
      status: 'done',
    });
    const refused = await api.delete(`/missions/${used.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("Cannot delete: it is still used by 1 player's progress (disable it instead)");
    expect(await MissionModel.exists({ _id: used.body.id })).not.toBeNull();
  });
});
