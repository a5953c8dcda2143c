import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { runJobsOnce } from '../../jobs';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { upsertFromTelegram } from '../users/users.service';
import { AppConfigModel } from './appConfig.model';
import { getAppConfig } from './config.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
afterEach(() => onFault(null));

async function setting() {
  const [mallory, checker] = await Promise.all([createOperator(['app-config:write']), createOperator(['app-config:write'])]);
  // a fresh coin: above 1,000 a reward waits
  const coin = await createCoin();
  const config = await getAppConfig();
  config.set({
    botUsername: 'GiftRewardsBot',
    referrerCoin: coin._id,
    referrerCoinAmount: Number(toMicros('5')),
    streakMilestones: [],
    referralQualification: { doneMissions: 0, activeDays: 0, premiumRewardPercent: 100 },
  });
  await config.save();
  return { mallory: consoleApi(app, mallory.token), checker: consoleApi(app, checker.token), coin };
}

describe('a reward App Config pays (finding 8)', () => {
  it('a referral reward of 1,000,000 set by an app-config:write operator waits, and is not paid; the rest of the save applies', async () => {
    const { mallory, checker, coin } = await setting();
    const saved = await mallory.put('/app-config/current', {
      referrerCoin: String(coin._id),
      referrerCoinAmount: '1000000',
      referrerMessage: 'Come play',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      referrerMessage: 'Come play',
      referrerCoinAmount: '5',
      waitingRewards: { referral: { amount: '1000000', coin: String(coin._id) }, streakMilestones: null },
    });

    // a friend joins meanwhile: the referrer is offered, and at most paid, the live reward
    const referrer = await createPlayer();
    await upsertFromTelegram(
      { user: { id: 8_700_000 + (Date.now() % 100_000), first_name: 'Friend' }, auth_date: 0, start_param: referrer.referralCode },
      new Date(),
    );
    expect((await playerCaller(referrer).referrals.summary()).reward).toMatchObject({ amount: '5' });
    expect(await LedgerEntryModel.countDocuments({ user: referrer._id, amount: { $gt: Number(toMicros('5')) } })).toBe(0);

    // the operator who asked cannot approve it; an independent one can
    const id = String(saved.body.waitingRewards.referral.id);
    const own = await mallory.post('/app-config/current/rewards/referral/approve', { id });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/must approve this reward change: you asked for it$/);
    expect((await AppConfigModel.findOne({ key: 'app' }).lean())!.referrerCoinAmount).toBe(Number(toMicros('5')));
    const approved = await checker.post('/app-config/current/rewards/referral/approve', { id });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ referrerCoinAmount: '1000000', waitingRewards: { referral: null } });
    expect((await checker.post('/app-config/current/rewards/referral/approve', { id })).status).toBe(200);
    expect(await AuditEntryModel.countDocuments({ key: `config-reward:${id}` })).toBe(1);
  });

  it('streak milestones above the threshold wait as a list; a rejection keeps the live ones; below it they apply at once', async () => {
    const { mallory, checker, coin } = await setting();
    const big = [{ days: 7, coin: String(coin._id), amount: '50000' }];
    const saved = await mallory.put('/app-config/current', { streakMilestones: big });
    expect(saved.body.streakMilestones).toEqual([]);
    expect(saved.body.waitingRewards.streakMilestones).toMatchObject({ milestones: big });
    const id = String(saved.body.waitingRewards.streakMilestones.id);
    const rejected = await checker.post('/app-config/current/rewards/streakMilestones/reject', { id, rejectReason: 'Too generous' });
    expect(rejected.body).toMatchObject({ streakMilestones: [], waitingRewards: { streakMilestones: null } });
    expect((await checker.post('/app-config/current/rewards/streakMilestones/approve', { id })).status).toBe(409);
    const small = [{ days: 3, coin: String(coin._id), amount: '100' }];
    expect((await mallory.put('/app-config/current', { streakMilestones: small })).body.streakMilestones).toEqual(small);
    expect((await mallory.post('/app-config/current/rewards/bonus/approve', { id })).status).toBe(404);
  });

  it('a crash between the approval and its audit applies the reward once; the sweep, then repeats, write one audit', async () => {
    const { mallory, checker, coin } = await setting();
    // killed after the save's write, before its request's operation (change-request) found it and audited the save
    onFault((point, kind) => {
      if (point === 'ledger:after-record' && kind === 'change-request') throw new Error('killed');
    });
    expect((await mallory.put('/app-config/current', { referrerCoin: String(coin._id), referrerCoinAmount: '2000' })).status).toBe(500);
    onFault(null);
    const asked = (await AppConfigModel.findOne({ key: 'app' }).lean())!;
    expect([asked.referrerCoinAmount, asked.waitingRewards?.referral?.amount]).toEqual([Number(toMicros('5')), Number(toMicros('2000'))]);
    const id = asked.waitingRewards!.referral!.id;
    const saveAudits = () => AuditEntryModel.countDocuments({ key: `change-request:app-config:${id}`, action: 'update' });
    expect(await saveAudits()).toBe(0);
    // the engine's point after a decision's admit took and applied it (no postings), before its audit step
    onFault((point, kind) => {
      if (point === 'ledger:after-apply' && kind === 'change-decision') throw new Error('killed');
    });
    expect((await checker.post('/app-config/current/rewards/referral/approve', { id })).status).toBe(500);
    onFault(null);
    const applied = (await AppConfigModel.findOne({ key: 'app' }).lean())!;
    expect([applied.referrerCoinAmount, applied.waitingRewards?.referral]).toEqual([Number(toMicros('2000')), null]);
    expect(await AuditEntryModel.countDocuments({ key: `config-reward:${id}` })).toBe(0);
    // with nobody repeating it, the money recovery writes it once, and the save's audit
    await runJobsOnce(0);
    expect(await AuditEntryModel.countDocuments({ key: `config-reward:${id}` })).toBe(1);
    expect(await saveAudits()).toBe(1);
    for (let i = 0; i < 2; i++) expect((await checker.post('/app-config/current/rewards/referral/approve', { id })).status).toBe(200);
    expect(await AuditEntryModel.countDocuments({ key: `config-reward:${id}` })).toBe(1);
    expect((await AppConfigModel.findOne({ key: 'app' }).lean())!.referrerCoinAmount).toBe(Number(toMicros('2000')));
    expect((await mallory.post('/app-config/current/rewards/referral/approve', { id })).status).toBe(409);
  });
});

describe('mining and a Premium friend’s share set in App Config (one operator cannot raise them alone)', () => {
  it('mining raised to 1,000,000 a session waits, and players keep mining at the live rate until a second operator approves', async () => {
    const { mallory, checker, coin } = await setting();
    await AppConfigModel.updateOne(
      { key: 'app' },
      { $set: { miningCoin: coin._id, earnAmount: Number(toMicros('100')), earnDurationHours: 8 } },
    );
    const player = await createPlayer();
    const raised = await mallory.put('/app-config/current', { miningCoin: String(coin._id), earnAmount: '1000000', earnDurationHours: 8 });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({
      earnAmount: '100',
      waitingRewards: { mining: { amount: '1000000', hours: 8, coin: String(coin._id) } },
    });
    expect((await playerCaller(player).mining.status()).earnAmount).toBe('100');

    // a shorter session pays more per hour too: 300 a day in 1-hour sessions is 7,200 a day, above the 1,000 threshold
    const shorter = await mallory.put('/app-config/current', { earnAmount: '300', earnDurationHours: 1 });
    expect(shorter.body).toMatchObject({
      earnAmount: '100',
      earnDurationHours: 8,
      waitingRewards: { mining: { amount: '300', hours: 1 } },
    });
    const id = String(shorter.body.waitingRewards.mining.id);
    // the first request was replaced by the second
    expect((await checker.post('/app-config/current/rewards/mining/approve', { id: raised.body.waitingRewards.mining.id })).status).toBe(
      409,
    );
    expect((await mallory.post('/app-config/current/rewards/mining/approve', { id })).status).toBe(403);
    const approved = await checker.post('/app-config/current/rewards/mining/approve', { id });
    expect(approved.body).toMatchObject({ earnAmount: '300', earnDurationHours: 1, waitingRewards: { mining: null } });
    expect(await AuditEntryModel.countDocuments({ key: `config-reward:${id}` })).toBe(1);
  });

  it('paying less, or a day under the threshold, applies at once; turning mining off too', async () => {
    const { mallory, coin } = await setting();
    await AppConfigModel.updateOne(
      { key: 'app' },
      { $set: { miningCoin: coin._id, earnAmount: Number(toMicros('5000')), earnDurationHours: 8 } },
    );
    // 4,000 a session is less than 5,000: an operator can always cut what mining pays
    expect((await mallory.put('/app-config/current', { earnAmount: '4000' })).body).toMatchObject({
      earnAmount: '4000',
      waitingRewards: { mining: null },
    });
    // 300 a session, 3 a day: 900, under the threshold
    expect((await mallory.put('/app-config/current', { earnAmount: '300' })).body).toMatchObject({ earnAmount: '300' });
    expect((await mallory.put('/app-config/current', { earnAmount: '330' })).body).toMatchObject({ earnAmount: '330' });
    expect((await mallory.put('/app-config/current', { miningCoin: null, earnAmount: '0' })).body).toMatchObject({ miningCoin: null });
  });

  it('a Premium friend’s share raised so one referral pays above the threshold waits with it; the live percent pays meanwhile', async () => {
    const { mallory, checker, coin } = await setting();
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { referrerCoinAmount: Number(toMicros('400')) } });
    // 400 at 200 % is 800: at once
    const modest = await mallory.put('/app-config/current', {
      referralQualification: { doneMissions: 0, activeDays: 0, premiumRewardPercent: 200 },
    });
    expect(modest.body).toMatchObject({ referralQualification: { premiumRewardPercent: 200 }, waitingRewards: { referral: null } });
    // 400 at 1,000 % is 4,000: waits, and the rest of the qualification applies
    const big = await mallory.put('/app-config/current', {
      referralQualification: { doneMissions: 2, activeDays: 0, premiumRewardPercent: 1000 },
    });
    expect(big.body).toMatchObject({
      referralQualification: { doneMissions: 2, premiumRewardPercent: 200 },
      waitingRewards: { referral: { amount: '400', premiumRewardPercent: 1000, coin: String(coin._id) } },
    });
    // and raising the amount under a generous percent is judged by what a Premium friend would bring: 600 at 200 % is 1,200
    const id = String(big.body.waitingRewards.referral.id);
    const approved = await checker.post('/app-config/current/rewards/referral/approve', { id });
    expect(approved.body).toMatchObject({
      referrerCoinAmount: '400',
      referralQualification: { doneMissions: 2, premiumRewardPercent: 1000 },
    });
    await mallory.put('/app-config/current', { referralQualification: { doneMissions: 2, activeDays: 0, premiumRewardPercent: 200 } });
    const amount = await mallory.put('/app-config/current', { referrerCoinAmount: '600' });
    expect(amount.body).toMatchObject({
      referrerCoinAmount: '400',
      waitingRewards: { referral: { amount: '600', premiumRewardPercent: 200 } },
    });
  });
});
