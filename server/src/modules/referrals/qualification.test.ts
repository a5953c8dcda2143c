import { toMicros } from '@gift/shared';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { getAppConfig } from '../config/config.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { NotificationModel } from '../notifications/notification.model';
import { UserModel } from '../users/user.model';
import { setPlayerStatus } from '../users/playerStatus.service';
import { upsertFromTelegram } from '../users/users.service';
import { qualifyReferrals } from './referrals.service';

const JOINED = new Date('2026-11-01T12:00:00Z');
let nextId = 8_100_000;

async function configure(qualification: Record<string, number>) {
  const coin = await createCoin({ symbol: 'GIFT' });
  const config = await getAppConfig();
  config.set({
    botUsername: 'GiftRewardsBot',
    referrerCoin: coin._id,
    referrerCoinAmount: Number(toMicros('5')),
    referralQualification: qualification,
  });
  await config.save();
  return coin;
}

/** A friend's first launch through the referrer's link. */
async function friendOf(referrer: { referralCode: string }, fields: { isPremium?: boolean } = {}) {
  const launch = {
    user: { id: nextId++, first_name: 'Friend', is_premium: fields.isPremium },
    auth_date: 0,
    start_param: referrer.referralCode,
  };
  return (await upsertFromTelegram(launch, JOINED)).user;
}

describe('qualified referrals', () => {
  afterEach(async () => {
    const config = await getAppConfig();
    config.set({ referralQualification: { doneMissions: 0, activeDays: 0, premiumRewardPercent: 100 } });
    await config.save();
  });

  it('credits the referrer when the friend has done the missions App Config asks, not at the join; the invite page shows both', async () => {
    const coin = await configure({ doneMissions: 2 });
    // a referrer the bot may message is told when a friend qualifies
    const referrer = await createPlayer({ messagePermission: true });
    const friend = await friendOf(referrer);
    expect((await UserModel.findById(friend._id).lean())!.referralState).toBe('joined');
    expect(await balanceOf(referrer._id, coin._id)).toBe(0n);
    expect(await playerCaller(referrer).referrals.summary()).toMatchObject({
      friendsCount: 1,
      qualifiedCount: 0,
      qualification: { doneMissions: 2, activeDays: 0 },
    });
    // one mission is not enough
    await UserModel.updateOne({ _id: friend._id }, { $set: { doneMissionsCount: 1 } });
    expect(await qualifyReferrals()).toBe(0);
    await UserModel.updateOne({ _id: friend._id }, { $set: { doneMissionsCount: 2 } });
    expect(await qualifyReferrals()).toBe(1);
    expect(await qualifyReferrals()).toBe(0);
    expect(await balanceOf(referrer._id, coin._id)).toBe(toMicros('5'));
    expect(await LedgerEntryModel.countDocuments({ user: referrer._id, reason: 'referral' })).toBe(1);
    expect(await playerCaller(await UserModel.findById(referrer._id)).referrals.summary()).toMatchObject({
      friendsCount: 1,
      qualifiedCount: 1,
    });
    expect(await NotificationModel.find({ user: referrer._id }, { event: 1, facts: 1, _id: 0 }).lean()).toEqual([
      { event: 'friend-joined', facts: { friend: 'Friend' } },
      { event: 'friend-qualified', facts: { friend: 'Friend', amount: '5', symbol: 'GIFT' } },
    ]);
  });

  it('qualifies a friend still playing the days App Config asks, and weights a Premium friend as it says', async () => {
    const coin = await configure({ activeDays: 3, premiumRewardPercent: 250 });
    const referrer = await createPlayer();
    const premium = await friendOf(referrer, { isPremium: true });
    const plain = await friendOf(referrer);
    // seen again two days later: not yet; three days later: qualified
    await UserModel.updateMany(
      { _id: { $in: [premium._id, plain._id] } },
      { $set: { lastSeenAt: new Date(JOINED.getTime() + 2 * 86_400_000) } },
    );
    expect(await qualifyReferrals()).toBe(0);
    await UserModel.updateOne({ _id: premium._id }, { $set: { lastSeenAt: new Date(JOINED.getTime() + 3 * 86_400_000) } });
    expect(await qualifyReferrals()).toBe(1);
    expect(await balanceOf(referrer._id, coin._id)).toBe(toMicros('12.5'));
  });

  it("holds a frozen referrer's reward until they are active again, then pays it once", async () => {
    const coin = await configure({ doneMissions: 1 });
    const referrer = await createPlayer();
    const friend = await friendOf(referrer);
    await UserModel.updateOne({ _id: friend._id }, { $set: { doneMissionsCount: 1 } });
    await setPlayerStatus(referrer._id, { status: 'frozen', statusReason: 'Farm' }, new Date());
    expect(await qualifyReferrals()).toBe(0);
    expect(await balanceOf(referrer._id, coin._id)).toBe(0n);
    // settled, its money owed as the reward's operation (no state of the referral says it is owed)
    expect((await UserModel.findById(friend._id).lean())!.referralState).toBe('rewarded');
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await balanceOf(referrer._id, coin._id)).toBe(0n);
    await setPlayerStatus(referrer._id, { status: 'active' }, new Date());
    // the engine's sweep pays it, once
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await qualifyReferrals()).toBe(0);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await balanceOf(referrer._id, coin._id)).toBe(toMicros('5'));
  });

  it('credits at the join when App Config asks nothing, as before', async () => {
    const coin = await configure({ doneMissions: 0, activeDays: 0 });
    const referrer = await createPlayer();
    const friend = await friendOf(referrer);
    // the registration writes no state saying the referral is owed: its reward's operation, recorded first, is
    expect(friend.referralState).toBeUndefined();
    expect((await UserModel.findById(friend._id).lean())!.referralState).toBe('rewarded');
    expect(await balanceOf(referrer._id, coin._id)).toBe(toMicros('5'));
  });
});
