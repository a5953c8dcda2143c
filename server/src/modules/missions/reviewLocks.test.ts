import { fromMicros } from '@gift/shared';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createManualMission, createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { balanceOf } from '../ledger/ledger.service';
import { NotificationModel } from '../notifications/notification.model';
import { notificationText, type NotificationFacts } from '../notifications/notificationTexts';
import { UserMissionModel } from './mission.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

/** A player's Manual claim waiting for review (reward 1 of a fresh coin), and two reviewers. */
async function pendingClaim(language: 'en' | 'fa' = 'en') {
  const coin = await createCoin();
  const { mission } = await createManualMission(coin);
  const player = await createPlayer({ language, messagePermission: true });
  const caller = playerCaller(player);
  await caller.missions.go({ missionId: String(mission._id) });
  await caller.missions.claim({ missionId: String(mission._id), proof: { text: 'I did it' } });
  const claim = (await UserMissionModel.findOne({ user: player._id, mission: mission._id }).lean())!;
  const [first, second] = await Promise.all([createOperator(), createOperator()]);
  return {
    id: String(claim._id),
    player,
    caller,
    mission,
    coin,
    first: { ...first, api: consoleApi(app, first.token) },
    second: { ...second, api: consoleApi(app, second.token) },
  };
}

describe('a reviewer’s hold on the claim they opened', () => {
  it('two reviewers opening the same claim at once: exactly one holds it, the other is told who', async () => {
    const { id, first, second } = await pendingClaim();
    const answers = await Promise.all([first.api.post(`/user-missions/${id}/lock`), second.api.post(`/user-missions/${id}/lock`)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers[0].status === 200 ? first : second;
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body).toMatchObject({
      code: 'CLAIM_LOCKED',
      message: expect.stringContaining(`Being reviewed by ${winner.account.username}`),
    });
    const held = (await UserMissionModel.findById(id).lean())!;
    expect(String(held.lockedBy)).toBe(winner.id);
    // the queue says who has it open
    const listed = await second.api.get('/user-missions', { filter: { status: 'pending' } });
    expect(listed.body.find((row: { id: string }) => row.id === id)).toMatchObject({
      lockedBy: winner.id,
      lockedByName: winner.account.username,
    });
  });

  it("refuses the other reviewer's approval of a held claim (409 naming the holder) and changes nothing", async () => {
    const { id, player, coin, first, second } = await pendingClaim();
    await first.api.post(`/user-missions/${id}/lock`).expect(200);
    const before = (await UserMissionModel.findById(id).lean())!;
    const audits = await AuditEntryModel.countDocuments({ record: id });

    const approve = await second.api.put(`/user-missions/${id}`, { status: 'done' }).expect(409);
    expect(approve.body).toMatchObject({ code: 'CLAIM_LOCKED', params: { name: first.account.username } });
    expect(approve.body.message).toMatch(new RegExp(`^Being reviewed by ${first.account.username} until \\d\\d:\\d\\d UTC`));
    await second.api.put(`/user-missions/${id}`, { status: 'rejected', rejectReason: 'No' }).expect(409);
    const bulk = await second.api.post('/user-missions/bulk-review', { ids: [id], status: 'done' }).expect(200);
    expect(bulk.body).toEqual({ reviewed: [], refused: { [id]: expect.stringContaining(`Being reviewed by ${first.account.username}`) } });

    expect(await UserMissionModel.findById(id).lean()).toEqual(before);
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    expect(await AuditEntryModel.countDocuments({ record: id })).toBe(audits);

    // the holder decides it; the decision lets the hold go
    const approved = await first.api.put(`/user-missions/${id}`, { status: 'done' }).expect(200);
    expect(approved.body).toMatchObject({ status: 'done', lockedBy: null, lockedByName: '' });
    expect(fromMicros(await balanceOf(player._id, coin._id))).toBe('1');
  });

  it('a hold that ran out is taken by the next reviewer, who may then decide; one let go is free at once', async () => {
    const { id, first, second } = await pendingClaim();
    await first.api.post(`/user-missions/${id}/lock`).expect(200);
    await UserMissionModel.updateOne({ _id: id }, { $set: { lockedUntil: new Date(Date.now() - 1000) } });
    const taken = await second.api.post(`/user-missions/${id}/lock`).expect(200);
    expect(taken.body).toMatchObject({ lockedBy: second.id, lockedByName: second.account.username });
    expect(Date.parse(taken.body.lockedUntil) - Date.now()).toBeGreaterThan(4 * 60_000);
    await first.api.post(`/user-missions/${id}/lock`).expect(409);
    // letting go is only the holder's: the first reviewer's DELETE leaves the second's hold
    await first.api.delete(`/user-missions/${id}/lock`).expect(200);
    await first.api.post(`/user-missions/${id}/lock`).expect(409);
    await second.api.delete(`/user-missions/${id}/lock`).expect(200);
    await first.api.post(`/user-missions/${id}/lock`).expect(200);
  });

  it('a decided claim cannot be held', async () => {
    const { id, first } = await pendingClaim();
    await first.api.put(`/user-missions/${id}`, { status: 'rejected', rejectReason: 'Blurry' }).expect(200);
    const refused = await first.api.post(`/user-missions/${id}/lock`).expect(409);
    expect(refused.body.code).toBe('MISSION_NOT_PENDING');
  });
});

describe('canned reasons for a rejection', () => {
  const REASONS = [
    { en: 'The screenshot does not show the channel', fa: 'تصویر کانال را نشان نمی‌دهد' },
    { en: 'The link is to another account', fa: 'پیوند به حساب دیگری است' },
  ];

  async function savedReasons(api: ReturnType<typeof consoleApi>) {
    const saved = await api.put('/app-config/current', { rejectReasons: REASONS }).expect(200);
    return saved.body.rejectReasons as Array<{ id: string; en: string; fa: string }>;
  }

  it('are kept in App Config with ids that last across saves, and audited', async () => {
    const { first } = await pendingClaim();
    const reasons = await savedReasons(first.api);
    expect(reasons).toEqual(REASONS.map((reason) => ({ id: expect.stringMatching(/^[a-f\d]{24}$/), ...reason })));
    const again = await first.api
      .put('/app-config/current', { rejectReasons: [reasons[1], { en: 'Too late', fa: 'دیر است' }] })
      .expect(200);
    expect(again.body.rejectReasons[0]).toEqual(reasons[1]);
    const audit = await AuditEntryModel.findOne({ resource: 'app-config' }).sort({ _id: -1 }).lean();
    expect(JSON.stringify(audit)).toContain('Too late');
  });

  it.each([
    ['a reason without its Persian', [{ en: 'Blurry' }]],
    ['a blank English text', [{ en: '  ', fa: 'تار' }]],
    ['a text past 300 characters', [{ en: 'x'.repeat(301), fa: 'تار' }]],
    [
      'the same id twice',
      [
        { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', en: 'a', fa: 'ب' },
        { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', en: 'c', fa: 'د' },
      ],
    ],
    ['not a list', 'Blurry'],
  ])('refuses %s (400) and keeps the saved ones', async (_name, rejectReasons) => {
    const { first } = await pendingClaim();
    const reasons = await savedReasons(first.api);
    const refused = await first.api.put('/app-config/current', { rejectReasons }).expect(400);
    expect(refused.body.code).toBe('BAD_INPUT');
    expect((await first.api.get('/app-config/current').expect(200)).body.rejectReasons).toEqual(reasons);
  });

  it.each([
    ['fa', 1],
    ['en', 0],
  ] as const)('reach a %s player in their language, in the app and in the bot', async (language, index) => {
    const { id, first, caller, mission, player } = await pendingClaim(language);
    const reasons = await savedReasons(first.api);
    const rejected = await first.api.put(`/user-missions/${id}`, { status: 'rejected', reasonId: reasons[0]!.id }).expect(200);
    // the console reads the English, with the Persian beside it
    expect(rejected.body).toMatchObject({ rejectReason: REASONS[0]!.en, rejectReasonFa: REASONS[0]!.fa });
    const page = await caller.missions.byCategory({ categoryId: String(mission.category) });
    const shown = [REASONS[0]!.en, REASONS[0]!.fa][index]!;
    expect(page.missions[0]).toMatchObject({ status: 'rejected', rejectReason: shown });
    const message = await NotificationModel.findOne({ user: player._id, event: 'mission-rejected' }).lean();
    expect(message?.facts).toMatchObject({ reason: REASONS[0]!.en, reasonFa: REASONS[0]!.fa });
    expect(notificationText(language, 'mission-rejected', message!.facts as NotificationFacts['mission-rejected'])).toContain(shown);
  });

  it('refuses a reason no longer in App Config (400) and leaves the claim pending; the written reason still works', async () => {
    const { id, first } = await pendingClaim();
    await savedReasons(first.api);
    const refused = await first.api.put(`/user-missions/${id}`, { status: 'rejected', reasonId: 'bbbbbbbbbbbbbbbbbbbbbbbb' }).expect(400);
    expect(refused.body.errors).toEqual({ reasonId: 'This reason is no longer in App Config: choose another, or write one' });
    await first.api.put(`/user-missions/${id}`, { status: 'rejected' }).expect(400);
    expect((await UserMissionModel.findById(id).lean())!.status).toBe('pending');
    const written = await first.api.put(`/user-missions/${id}`, { status: 'rejected', rejectReason: 'Blurry picture' }).expect(200);
    expect(written.body).toMatchObject({ status: 'rejected', rejectReason: 'Blurry picture', rejectReasonFa: '' });
  });
});
