import { fromMicros, toMicros } from '@gift/shared';
import { verifyInitData } from '../../lib/telegramAuth';
import { createCoin, createPlayer } from '../../../test/factories';
import { TEST_BOT_TOKEN } from '../../../test/helpers';
import { signInitData, type LaunchToSign } from '../../../test/telegram';
import { getAppConfig } from '../config/config.service';
import { balanceOf } from '../ledger/ledger.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { findReferrer } from './players.service';
import { UserModel } from './user.model';
import { demoPlayer, upsertFromTelegram } from './users.service';

const NOW = new Date('2025-03-01T12:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
let nextTelegramId = 7_000_000;

/** A launch as the server sees it once the initData checked out. */
function launchOf(fields: Partial<LaunchToSign> & { user?: LaunchToSign['user'] } = {}, now = NOW) {
  const user = fields.user ?? { id: ++nextTelegramId, first_name: 'New', last_name: 'Friend', username: `friend${nextTelegramId}` };
  return verifyInitData(signInitData({ authDate: now, ...fields, user }), TEST_BOT_TOKEN, now);
}

async function configureReferralReward(amount: string, defaultInviteLimit = 100) {
  const coin = await createCoin();
  const config = await getAppConfig();
  config.set({ referrerCoin: coin._id, referrerCoinAmount: Number(toMicros(amount)), defaultInviteLimit });
  await config.save();
  return coin;
}

describe('a Telegram launch', () => {
  it('registers the player on their first launch with what Telegram says about them', async () => {
    const config = await getAppConfig();
    config.set({ defaultInviteLimit: 7 });
    await config.save();
    const launch = launchOf({
      user: {
        id: 5001,
        first_name: 'Sara',
        last_name: 'Karimi',
        username: 'Sara_K',
        language_code: 'fa-IR',
        is_premium: true,
        allows_write_to_pm: true,
        photo_url: 'https://t.me/i/userpic/1.jpg',
      },
    });
    const { user, created } = await upsertFromTelegram(launch, NOW);
    expect(created).toBe(true);
    expect(user.toObject()).toMatchObject({
      telegramId: 5001,
      name: 'Sara Karimi',
      username: 'Sara_K',
      usernameLower: 'sara_k',
      languageCode: 'fa-IR',
      language: 'fa',
      messagePermission: true,
      isPremium: true,
      photoUrl: 'https://t.me/i/userpic/1.jpg',
      inviteLimit: 7,
      referrer: null,
      referrersCount: 0,
    });
    expect(user.referralCode).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(user.get('createdAt')).toEqual(NOW);
    expect(await UserModel.countDocuments({ telegramId: 5001 })).toBe(1);
  });

  it('speaks English to anyone whose Telegram is not in Persian', async () => {
    const { user } = await upsertFromTelegram(launchOf({ user: { id: 5002, first_name: 'Tom', language_code: 'de' } }), NOW);
    expect(user.language).toBe('en');
    expect(user.name).toBe('Tom');
  });

  it('refreshes name, username and premium on later launches, keeping the rest and the message permission', async () => {
    const first = await upsertFromTelegram(
      launchOf({ user: { id: 5003, first_name: 'Ali', username: 'ali_old', allows_write_to_pm: true, language_code: 'fa' } }),
      NOW,
    );
    await UserModel.updateOne({ _id: first.user._id }, { $set: { language: 'en', theme: 'light' } });

    const second = await upsertFromTelegram(
      launchOf(
        { user: { id: 5003, first_name: 'Ali', last_name: 'Rezaei', username: 'ali_new', is_premium: true, language_code: 'fa' } },
        later(3600_000),
      ),
      later(3600_000),
    );
    expect(second.created).toBe(false);
    expect(second.user.toObject()).toMatchObject({
      name: 'Ali Rezaei',
      username: 'ali_new',
      usernameLower: 'ali_new',
      // a launch without allows_write_to_pm does not withdraw it: a refused bot message does
      messagePermission: true,
      isPremium: true,
      language: 'en',
      theme: 'light',
      referralCode: first.user.referralCode,
      lastSeenAt: later(3600_000),
    });
    expect(await UserModel.countDocuments({ telegramId: 5003 })).toBe(1);
  });

  it('takes a username away from whoever held it before', async () => {
    await upsertFromTelegram(launchOf({ user: { id: 5004, first_name: 'Old', username: 'shared_name' } }), NOW);
    await upsertFromTelegram(launchOf({ user: { id: 5005, first_name: 'New', username: 'Shared_Name' } }), NOW);
    expect(await UserModel.find({ usernameLower: 'shared_name' }).distinct('telegramId')).toEqual([5005]);
  });

  it('makes one player of 50 simultaneous first launches', async () => {
    const launch = launchOf({ user: { id: 5006, first_name: 'Rush' } });
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => upsertFromTelegram(launch, NOW)));
    expect(await UserModel.countDocuments({ telegramId: 5006 })).toBe(1);
    expect(outcomes.filter((o) => o.created)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => String(o.user._id))).size).toBe(1);
  });
});

describe('referrals at registration', () => {
  it('links the newcomer to the referrer and credits the referrer coin amount', async () => {
    const coin = await configureReferralReward('2.5');
    const referrer = await createPlayer({ inviteLimit: 3 });
    const { user, referral } = await upsertFromTelegram(launchOf({ startParam: referrer.referralCode }), NOW);

    expect(String(user.referrer)).toBe(String(referrer._id));
    expect(referral).toEqual({ counted: true, credited: true });
    expect(fromMicros(await balanceOf(referrer._id, coin._id))).toBe('2.5');
    const entry = await LedgerEntryModel.findOne({ idempotencyKey: `referral:${user._id}` }).lean();
    expect(entry).toMatchObject({ reason: 'referral', refType: 'User', refId: String(user._id), state: 'posted' });
    expect((await UserModel.findById(referrer._id))!.referrersCount).toBe(1);
  });

  it('beyond the invite limit links the friend but neither counts nor credits them', async () => {
    const coin = await configureReferralReward('1');
    const referrer = await createPlayer({ inviteLimit: 1 });
    const first = await upsertFromTelegram(launchOf({ startParam: referrer.referralCode }), NOW);
    const second = await upsertFromTelegram(launchOf({ startParam: referrer.referralCode }), NOW);

    expect(first.referral).toEqual({ counted: true, credited: true });
    expect(second.referral).toEqual({ counted: false, credited: false });
    expect(String(second.user.referrer)).toBe(String(referrer._id));
    expect(fromMicros(await balanceOf(referrer._id, coin._id))).toBe('1');
    expect((await UserModel.findById(referrer._id))!.referrersCount).toBe(1);
  });

  it('never lets a player refer themselves', async () => {
    const coin = await configureReferralReward('1');
    const { user } = await upsertFromTelegram(launchOf({ user: { id: 5010, first_name: 'Self' } }), NOW);
    expect(await findReferrer(user.referralCode, 5010)).toBeNull();
    const again = await upsertFromTelegram(
      launchOf({ user: { id: 5010, first_name: 'Self' }, startParam: user.referralCode }, later(120_000)),
      later(120_000),
    );
    expect(again.user.referrer).toBeNull();
    expect(await balanceOf(user._id, coin._id)).toBe(0n);
  });

  it('sets the referrer only at first registration: a later launch with another code changes nothing', async () => {
    const coin = await configureReferralReward('1');
    const [first, other] = await Promise.all([createPlayer(), createPlayer()]);
    const friend = launchOf({ startParam: first.referralCode });
    await upsertFromTelegram(friend, NOW);
    const relaunch = launchOf({ user: friend.user, startParam: other.referralCode }, later(120_000));
    const { user, created } = await upsertFromTelegram(relaunch, later(120_000));

    expect(created).toBe(false);
    expect(String(user.referrer)).toBe(String(first._id));
    expect(await balanceOf(other._id, coin._id)).toBe(0n);
    expect((await UserModel.findById(other._id))!.referrersCount).toBe(0);
    expect(fromMicros(await balanceOf(first._id, coin._id))).toBe('1');
  });

  it('ignores unknown codes and banned referrers', async () => {
    const coin = await configureReferralReward('1');
    const blocked = await createPlayer({ status: 'banned', statusReason: 'Farm' });
    const unknown = await upsertFromTelegram(launchOf({ startParam: 'nobody12' }), NOW);
    const toBlocked = await upsertFromTelegram(launchOf({ startParam: blocked.referralCode }), NOW);
    expect(unknown.user.referrer).toBeNull();
    expect(toBlocked.user.referrer).toBeNull();
    expect(await balanceOf(blocked._id, coin._id)).toBe(0n);
  });

  it("takes a bot message's page target for no referral code, and an 8-character code starting with go- for one", async () => {
    const coin = await configureReferralReward('1');
    // no drawn code is 9 characters long; one stored as a page target shows the server does not even look it up
    const lookalike = await createPlayer({ referralCode: 'go-leagues' });
    const goCode = await createPlayer({ referralCode: 'go-abcde' });
    const fromReminder = await upsertFromTelegram(launchOf({ startParam: 'go-leagues' }), NOW);
    const invited = await upsertFromTelegram(launchOf({ startParam: 'go-abcde' }), NOW);
    expect(fromReminder.user.referrer).toBeNull();
    expect(await balanceOf(lookalike._id, coin._id)).toBe(0n);
    expect(invited.user.referrer).toEqual(goCode._id);
    expect(fromMicros(await balanceOf(goCode._id, coin._id))).toBe('1');
  });

  it('counts the invite without a credit while no referral reward is configured', async () => {
    const config = await getAppConfig();
    config.set({ referrerCoin: null, referrerCoinAmount: 0 });
    await config.save();
    const referrer = await createPlayer();
    const { referral } = await upsertFromTelegram(launchOf({ startParam: referrer.referralCode }), NOW);
    expect(referral).toEqual({ counted: true, credited: false });
    expect(await LedgerEntryModel.countDocuments({ user: referrer._id })).toBe(0);
  });

  it('credits once when one newcomer launches 50 times at once', async () => {
    const coin = await configureReferralReward('3');
    const referrer = await createPlayer();
    const launch = launchOf({ startParam: referrer.referralCode });
    await Promise.all(Array.from({ length: 50 }, () => upsertFromTelegram(launch, NOW)));

    expect(fromMicros(await balanceOf(referrer._id, coin._id))).toBe('3');
    expect(await LedgerEntryModel.countDocuments({ user: referrer._id, reason: 'referral' })).toBe(1);
    expect((await UserModel.findById(referrer._id))!.referrersCount).toBe(1);
  });

  it('never passes the invite limit when 100 friends arrive at once', async () => {
    const coin = await configureReferralReward('0.5');
    // a hundred friends in one second is a farm's burst, whose rewards wait on risk (issue 32): this referrer was cleared by an
    // operator beforehand, so the race on the invite limit is what is tested here (the gate is in referrals/riskGate.test.ts)
    const referrer = await createPlayer({ inviteLimit: 10, riskCleared: { score: 1000 } });
    const launches = Array.from({ length: 100 }, () => launchOf({ startParam: referrer.referralCode }));
    const outcomes = await Promise.all(launches.map((launch) => upsertFromTelegram(launch, NOW)));

    expect(outcomes.filter((o) => o.referral?.credited)).toHaveLength(10);
    expect(await UserModel.countDocuments({ referrer: referrer._id })).toBe(100);
    expect((await UserModel.findById(referrer._id))!.referrersCount).toBe(10);
    expect(fromMicros(await balanceOf(referrer._id, coin._id))).toBe('5');
    expect(await LedgerEntryModel.countDocuments({ user: referrer._id, reason: 'referral' })).toBe(10);
  });
});

describe('the demo player', () => {
  it('is one record, clearly named and marked as demo', async () => {
    const players = await Promise.all([demoPlayer(NOW), demoPlayer(NOW), demoPlayer(NOW)]);
    expect(new Set(players.map((p) => String(p._id))).size).toBe(1);
    expect(players[0].toObject()).toMatchObject({ name: 'Demo Player', isDemo: true, username: '' });
    expect(await UserModel.countDocuments({ isDemo: true })).toBe(1);
  });
});
