import mongoose, { Types } from 'mongoose';
import { runJobsOnce } from '../../jobs';
import { createCoin, createManualMission } from '../../../test/factories';
import { createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { AppConfigModel } from '../config/appConfig.model';
import { recoverPendingEntries } from '../ledger/ledger.service';
import { MissionModel } from '../missions/mission.models';

const MIGRATION = 'change-decision-audits-of-older-version';
const changeId = () => new Types.ObjectId().toHexString();

it('decisions an older version left without their audit are audited once at start-up, as their decider’s', async () => {
  const [asker, decider, other] = await Promise.all([createOperator(), createOperator(), createOperator()]);
  // decided a day ago by the older version, which wrote each decision on its record and was killed before its audit
  const decided = { requestedBy: asker.account._id, decidedBy: decider.account._id, decidedAt: new Date(Date.now() - 86_400_000) };
  const coin = await createCoin();
  const coinChange = changeId();
  await GiftCoinModel.updateOne(
    { _id: coin._id },
    {
      $set: { lastChangeDecision: { id: coinChange, status: 'approved', ...decided, reason: '', set: { giftApprovalAbove: 500_000_000 } } },
    },
  );
  const { mission } = await createManualMission(coin);
  const missionChange = changeId();
  await MissionModel.updateOne(
    { _id: mission._id },
    {
      $set: { lastDecision: { id: missionChange, status: 'rejected', reward: 7_000_000, coin: coin._id, ...decided, reason: 'Too much' } },
    },
  );
  const configChange = changeId();
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { 'rewardDecisions.referral': { id: configChange, status: 'approved', coin: coin._id, amount: 2_000_000, ...decided } } },
    { upsert: true },
  );
  // and a decision that version did audit: left as it is
  const auditedCoin = await createCoin();
  const auditedChange = changeId();
  await GiftCoinModel.updateOne(
    { _id: auditedCoin._id },
    { $set: { lastChangeDecision: { id: auditedChange, status: 'rejected', ...decided, reason: 'No', set: { giftApprovalAbove: 0 } } } },
  );
  await AuditEntryModel.create({
    ...{ account: other.account._id, username: 'earlier', action: 'review', resource: 'gift-coins', record: String(auditedCoin._id) },
    ...{ note: 'Audited by the older version', key: `change:gift-coins:${auditedChange}` },
  });
  const keys = [`change:gift-coins:${coinChange}`, `mission-reward:${missionChange}`, `config-reward:${configChange}`];
  const audits = () => AuditEntryModel.find({ key: { $in: [...keys, `change:gift-coins:${auditedChange}`] } }).lean();

  // the engine's sweep does not audit them: nothing records an operation for a decision that version took
  await recoverPendingEntries(0);
  expect(await audits()).toHaveLength(1);

  // the money recovery's first pass after the upgrade; then again as though a crash came before it was marked over, and later
  await mongoose.connection.collection('migrations').deleteMany({ name: MIGRATION });
  await runJobsOnce(0);
  await mongoose.connection.collection('migrations').deleteMany({ name: MIGRATION });
  await runJobsOnce(0);
  await runJobsOnce(0);

  const written = await audits();
  expect(written.map((entry) => entry.key).sort()).toEqual([...keys, `change:gift-coins:${auditedChange}`].sort());
  const byKey = new Map(written.map((entry) => [entry.key, entry]));
  for (const key of keys) expect([key, String(byKey.get(key)!.account), byKey.get(key)!.action]).toEqual([key, decider.id, 'review']);
  expect(byKey.get(`change:gift-coins:${coinChange}`)).toMatchObject({
    resource: 'gift-coins',
    record: String(coin._id),
    note: `Approved change ${coinChange}`,
    after: { giftApprovalAbove: '500', status: 'approved' },
  });
  expect(byKey.get(`mission-reward:${missionChange}`)).toMatchObject({
    resource: 'missions',
    record: String(mission._id),
    note: `Rejected reward change ${missionChange}`,
    after: { rejectedReward: '7', coin: String(coin._id) },
  });
  expect(byKey.get(`config-reward:${configChange}`)).toMatchObject({
    resource: 'app-config',
    note: `Approved referral reward change ${configChange}`,
    after: { referral: { amount: '2', coin: String(coin._id) }, status: 'approved' },
  });
  expect(byKey.get(`change:gift-coins:${auditedChange}`)).toMatchObject({ username: 'earlier', note: 'Audited by the older version' });
});
