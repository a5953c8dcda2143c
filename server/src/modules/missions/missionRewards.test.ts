import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { CategoryModel } from '../content/content.models';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { OperationModel } from '../ledger/operation.model';
import { MissionModel, UserMissionModel } from './mission.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
afterEach(() => onFault(null));

async function setting() {
  // finding 6's operator: missions and reviews, no gifts
  const [mallory, checker, reviewer] = await Promise.all([
    createOperator(['missions:write', 'user-missions:write']),
    createOperator(['missions:write']),
    createOperator(['user-missions:write']),
  ]);
  // a fresh coin: thresholds on by default (1,000 above, 5,000 a day without a price)
  const coin = await createCoin({ symbol: `G${Date.now() % 1_000_000}` });
  const category = await CategoryModel.create({ title: 'Stories' });
  const form = (fields: Record<string, unknown> = {}) => ({
    category: String(category._id),
    coin: String(coin._id),
    title: 'Post a story',
    reward: '10',
    verifyType: 'manual',
    link: 'https://t.me/x',
    ...fields,
  });
  return {
    mallory: consoleApi(app, mallory.token),
    checker: consoleApi(app, checker.token),
    reviewer: consoleApi(app, reviewer.token),
    ids: { mallory: mallory.id, checker: checker.id },
    coin,
    form,
  };
}

describe("a mission's reward above its coin's threshold (finding 6)", () => {
  it('a 1,000,000 Manual mission created and approved by one operator waits, twice: its reward, then the claim', async () => {
    const { mallory, checker, reviewer, ids, coin, form } = await setting();
    const created = await mallory.post('/missions', form({ reward: '1000000' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ enabled: false, reward: '1000000', waiting: { reward: '1000000', requestedBy: ids.mallory } });
    const missionId = String(created.body.id);
    const waitingId = String(created.body.waiting.id);

    // not live: a colluding player cannot even start it
    const player = await createPlayer();
    const caller = playerCaller(player);
    await expect(caller.missions.go({ missionId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // the operator who asked cannot approve it, nor put it live by an edit or the campaign switch
    const own = await mallory.post(`/missions/${missionId}/reward/approve`, { id: waitingId });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/must approve this mission reward: you asked for it$/);
    const reEdit = await mallory.put(`/missions/${missionId}`, { ...form({ reward: '1000000' }), enabled: true });
    expect(reEdit.body.enabled).toBe(false);
    const bulk = await mallory.post('/missions/enabled', { ids: [missionId], enabled: true });
    expect(bulk.body).toEqual({ changed: [], waiting: [missionId] });
    expect((await MissionModel.findById(missionId).lean())!.enabled).toBe(false);

    // an independent operator approves the change they see (the latest)
    const latest = String((await MissionModel.findById(missionId).lean())!.waiting!.id);
    expect((await checker.post(`/missions/${missionId}/reward/approve`, { id: waitingId })).status).toBe(409);
    const approved = await checker.post(`/missions/${missionId}/reward/approve`, { id: latest });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ enabled: true, reward: '1000000', waiting: null });

    // the player claims; the operator who made the mission approves the claim alone: past their daily limit, it waits
    await caller.missions.go({ missionId });
    expect(await caller.missions.claim({ missionId })).toMatchObject({ status: 'pending' });
    const progressId = String((await UserMissionModel.findOne({ user: player._id, mission: missionId }).lean())!._id);
    const first = await mallory.put(`/user-missions/${progressId}`, { status: 'done' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'pending', firstApprovedBy: ids.mallory });
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    const again = await mallory.put(`/user-missions/${progressId}`, { status: 'done' });
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/must approve this claim: you asked for it$/);
    // a second reviewer approves: credited once
    expect((await reviewer.put(`/user-missions/${progressId}`, { status: 'done' })).body.status).toBe('done');
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('1000000'));
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'mission' })).toBe(1);
  });

  it('keeps the old reward of a live mission until a second operator approves the new one; a rejection keeps it for good', async () => {
    const { mallory, checker, form } = await setting();
    const created = await mallory.post('/missions', form({ reward: '10' }));
    expect(created.body).toMatchObject({ enabled: true, reward: '10', waiting: null });
    const missionId = String(created.body.id);
    const raised = await mallory.put(`/missions/${missionId}`, { ...form({ reward: '2000' }), title: 'Post a better story' });
    // the rest of the edit applies; the reward waits
    expect(raised.body).toMatchObject({ title: 'Post a better story', enabled: true, reward: '10', waiting: { reward: '2000' } });
    // a player who starts now is offered the live reward
    const player = await createPlayer();
    await playerCaller(player).missions.go({ missionId });
    expect((await UserMissionModel.findOne({ user: player._id }).lean())!.reward).toBe(Number(toMicros('10')));
    // an edit of the title only keeps what waits
    const titled = await mallory.put(`/missions/${missionId}`, { ...form({ reward: '10' }), title: 'Again' });
    expect(titled.body.waiting).toMatchObject({ reward: '2000' });
    const rejected = await checker.post(`/missions/${missionId}/reward/reject`, { id: titled.body.waiting.id, rejectReason: 'Too much' });
    expect(rejected.body).toMatchObject({ reward: '10', enabled: true, waiting: null });
    // at or below the threshold a change applies at once
    expect((await mallory.put(`/missions/${missionId}`, form({ reward: '1000' }))).body).toMatchObject({ reward: '1000', waiting: null });
  });

  it('a crash between any two writes of a waiting reward applies it once and loses nothing', async () => {
    const { mallory, checker, coin, form } = await setting();
    const created = await mallory.post('/missions', form({ reward: '10', verifyType: 'auto' }));
    const missionId = String(created.body.id);

    // killed after the edit's write, before its request's operation found it: the change waits, the live reward is untouched
    onFault((point, kind) => {
      if (point === 'ledger:after-record' && kind === 'change-request') throw new Error('killed');
    });
    expect((await mallory.put(`/missions/${missionId}`, form({ reward: '3000', verifyType: 'auto' }))).status).toBe(500);
    onFault(null);
    const asked = (await MissionModel.findById(missionId).lean())!;
    expect([asked.reward, asked.enabled, asked.waiting?.reward]).toEqual([Number(toMicros('10')), true, Number(toMicros('3000'))]);

    // killed after the approval's write, before its audit: applied once; the approver's repeat writes the audit, once
    // the engine's point after a decision's admit took and applied it (no postings), before its audit step
    onFault((point, kind) => {
      if (point === 'ledger:after-apply' && kind === 'change-decision') throw new Error('killed');
    });
    expect((await checker.post(`/missions/${missionId}/reward/approve`, { id: asked.waiting!.id })).status).toBe(500);
    onFault(null);
    const applied = (await MissionModel.findById(missionId).lean())!;
    expect([applied.reward, applied.waiting, applied.approvedReward]).toEqual([Number(toMicros('3000')), null, Number(toMicros('3000'))]);
    const key = `mission-reward:${asked.waiting!.id}`;
    expect(await AuditEntryModel.countDocuments({ key })).toBe(0);
    for (let i = 0; i < 2; i++)
      expect((await checker.post(`/missions/${missionId}/reward/approve`, { id: asked.waiting!.id })).status).toBe(200);
    expect(await AuditEntryModel.countDocuments({ key })).toBe(1);
    // the mission author may not finish it in the approver's place
    expect((await mallory.post(`/missions/${missionId}/reward/approve`, { id: asked.waiting!.id })).status).toBe(409);

    // the reward that went live is paid once per player
    const player = await createPlayer();
    const caller = playerCaller(player);
    await caller.missions.go({ missionId });
    await caller.missions.claim({ missionId });
    await expect(caller.missions.claim({ missionId })).rejects.toBeTruthy();
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('3000'));

    // approving again at the approved reward after a campaign pause needs no new approval
    await mallory.post('/missions/enabled', { ids: [missionId], enabled: false });
    expect((await mallory.post('/missions/enabled', { ids: [missionId], enabled: true })).body).toEqual({ changed: [missionId] });
  });

  // the request's operation (change-request): after the edit's write, after its admit found the change, after the edit's audit
  it.each(
    (['retry', 'sweep'] as const).flatMap((finisher) =>
      (['ledger:after-record', 'ledger:after-apply', 'ledger:after-step:audit'] as const).map((at) => ({ at, finisher })),
    ),
  )('a raise cut off at $at of its request is audited once by the $finisher', async ({ at, finisher }) => {
    const [point, audit] = at.split(':audit');
    const step = audit === undefined ? undefined : 'audit';
    const { mallory, checker, form } = await setting();
    const missionId = String((await mallory.post('/missions', form({ reward: '10' }))).body.id);
    const raise = () => mallory.put(`/missions/${missionId}`, { ...form({ reward: '3000' }), title: 'Raised' });
    onFault((reached, kind, atStep) => {
      if (reached === point && kind === 'change-request' && atStep === step) throw new Error(`crash at ${point}`);
    });
    expect((await raise()).status).toBe(500);
    onFault(null);
    const asked = (await MissionModel.findById(missionId).lean())!;
    expect([asked.title, asked.reward, asked.enabled, asked.waiting?.reward]).toEqual([
      'Raised',
      Number(toMicros('10')),
      true,
      Number(toMicros('3000')),
    ]);
    const edits = () => AuditEntryModel.find({ resource: 'missions', record: missionId, action: 'update' }).sort({ _id: 1 }).lean();
    // audited only once its step ran
    expect(await edits()).toHaveLength(point === 'ledger:after-step' ? 1 : 0);
    // the operator saves again (a new change: the crashed edit is audited first), or nobody does and the sweep alone does it
    let latest = asked.waiting!.id;
    if (finisher === 'retry') {
      const again = await raise();
      expect(again.status).toBe(200);
      latest = String(again.body.waiting.id);
    } else await recoverPendingEntries(0);
    await recoverPendingEntries(0);
    const audited = await edits();
    expect(audited.map((entry) => entry.key)).toEqual(
      finisher === 'retry'
        ? [`change-request:missions:${asked.waiting!.id}`, `change-request:missions:${latest}`]
        : [`change-request:missions:${asked.waiting!.id}`],
    );
    // the crashed edit's audit says what it changed, as the console route's would
    expect(audited[0]).toMatchObject({ before: { title: 'Post a story', waiting: null }, after: { title: 'Raised' } });
    expect(await OperationModel.countDocuments({ kind: 'change-request', refId: missionId, state: { $ne: 'done' } })).toBe(0);
    // the second operator decides the change that waits, as before
    const approved = await checker.post(`/missions/${missionId}/reward/approve`, { id: latest });
    expect(approved.body).toMatchObject({ reward: '3000', enabled: true, waiting: null });
  });
});
