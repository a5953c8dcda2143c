import type { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { networkKey } from '../../lib/clientAddress';
import { onFault } from '../../lib/faults';
import { createCoin, createPlayer } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator } from '../../../test/operators';
import { AuditEntryModel } from '../audit/audit.model';
import { getAppConfig } from '../config/config.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { assessPlayer, clearPlayerRisk } from '../risk/risk.service';
import { UserModel } from '../users/user.model';
import { upsertFromTelegram } from '../users/users.service';
import { qualifyReferrals, releaseWaitingReferrals } from './referrals.service';

/**
 * Issue 32, item 4 and finding 12: a slow referral farm (one friend every 16 s) stayed at risk score 5 and collected its 600
 * GIFT. Referral rewards now wait while the referrer or the friend is at review or high risk, and are paid once an operator
 * clears them; the attacks are played on the injected clock (each join at its own time), the farm's friends from a pool of
 * networks as a proxy gives them.
 */
const T0 = new Date('2026-11-20T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REWARD = toMicros('100');
let nextTelegramId = 8_600_000;

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

async function configureReward() {
  const coin = await createCoin({ symbol: 'GIFT' });
  const config = await getAppConfig();
  config.set({ referrerCoin: coin._id, referrerCoinAmount: Number(REWARD), referralQualification: { doneMissions: 0, activeDays: 0 } });
  await config.save();
  return coin;
}

/** A friend's first launch through the referrer's link, at `when`, from `network` (each a /24 of its own unless shared). */
async function join(referrer: { referralCode: string }, when: Date, network = `198.51.${nextTelegramId % 250}.7`) {
  const launch = { user: { id: nextTelegramId++, first_name: 'Friend' }, auth_date: 0, start_param: referrer.referralCode };
  return (await upsertFromTelegram(launch, when, networkKey(network))).user;
}

/** The farm: `count` friends, one every 16 s from `start`, none doing anything. */
async function farm(referrer: { referralCode: string }, count: number, start = T0) {
  const friends = [];
  for (let i = 0; i < count; i++) friends.push(await join(referrer, new Date(start.getTime() + i * 16_000)));
  return friends;
}

const states = async (referrerId: Types.ObjectId) => {
  const rows = await UserModel.find({ referrer: referrerId }, { referralState: 1 }).lean();
  const count = (state: string) => rows.filter((row) => row.referralState === state).length;
  return { rewarded: count('rewarded'), waiting: count('waiting'), other: rows.length - count('rewarded') - count('waiting') };
};
const rewardEntries = (referrerId: Types.ObjectId) => LedgerEntryModel.countDocuments({ user: referrerId, reason: 'referral' });

afterEach(() => onFault(null));

describe('the risk gate on referral rewards', () => {
  it('holds a slow farm (a friend every 16 s): it ends at review, then high, and its rewards wait', async () => {
    const coin = await configureReward();
    const referrer = await createPlayer({ createdAt: at(-400 * DAY) });
    const friends = await farm(referrer, 40);
    expect(friends).toHaveLength(40);

    const after = (await UserModel.findById(referrer._id).lean())!;
    expect(['review', 'high']).toContain(after.risk!.level);
    expect(after.risk!.signals.map((s) => s.signal)).toEqual(expect.arrayContaining(['friendPace', 'idleFriends']));
    const { rewarded, waiting, other } = await states(referrer._id);
    // only the first few, before the pace showed, were paid: everything after waits
    expect(rewarded).toBeLessThanOrEqual(7);
    expect([waiting, other]).toEqual([40 - rewarded, 0]);
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * BigInt(rewarded));
    expect(await rewardEntries(referrer._id)).toBe(rewarded);

    // two days on, no friend came back: the sweep finds them dormant, the score is high, and nothing more is paid
    expect(await qualifyReferrals(500, at(2 * DAY))).toBe(0);
    const later = (await assessPlayer(referrer._id, at(2 * DAY)))!;
    expect(later.level).toBe('high');
    expect(later.signals.find((s) => s.signal === 'dormantFriends')).toMatchObject({ strength: 1, evidence: { dormant: 40, judged: 40 } });
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * BigInt(rewarded));
    expect((await states(referrer._id)).waiting).toBe(40 - rewarded);
  });

  it('pays a clean referrer at once: friends over days, who play', async () => {
    const coin = await configureReward();
    const referrer = await createPlayer({ createdAt: at(-400 * DAY), isPremium: true });
    for (let day = 0; day < 6; day++) {
      const friend = await join(referrer, at(day * DAY + 5 * HOUR));
      await UserModel.updateOne({ _id: friend._id }, { $set: { missionsCount: 3, lastSeenAt: at(day * DAY + 30 * HOUR) } });
    }
    expect(await states(referrer._id)).toEqual({ rewarded: 6, waiting: 0, other: 0 });
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * 6n);
    expect((await assessPlayer(referrer._id, at(7 * DAY)))!.level).toBe('low');
  });

  it('holds a friend who is at risk themselves, however clean the referrer', async () => {
    const coin = await configureReward();
    const referrer = await createPlayer({ createdAt: at(-400 * DAY), isPremium: true });
    // twelve newcomers from one network within minutes (no referrer), then a friend from the same network
    for (let i = 0; i < 12; i++)
      await upsertFromTelegram(
        { user: { id: nextTelegramId++, first_name: 'Crowd' }, auth_date: 0 },
        at(i * 20_000),
        networkKey('203.0.113.9'),
      );
    await join(referrer, at(5 * 60_000), '203.0.113.50');
    expect(await states(referrer._id)).toEqual({ rewarded: 0, waiting: 1, other: 0 });
    expect(await balanceOf(referrer._id, coin._id)).toBe(0n);
  });

  it('pays what waited once an operator clears the referrer, exactly once through a crash, and holds again on new evidence', async () => {
    const coin = await configureReward();
    const referrer = await createPlayer({ createdAt: at(-400 * DAY) });
    await farm(referrer, 12);
    const first = await states(referrer._id);
    expect(first.waiting).toBeGreaterThan(0);

    // an operator who may not write players cannot clear: nothing paid
    const reader = consoleApi(app, (await createOperator(['users:read'])).token);
    expect((await reader.post(`/risk/${String(referrer._id)}/clear`)).status).toBe(403);
    expect(await states(referrer._id)).toEqual(first);

    // the clearance crashes once the first waiting reward's operation has settled it and credited the referrer, before its
    // ledger line and the referrer's message
    const operator = await createOperator(['users:write']);
    let crashes = 0;
    onFault((point) => {
      if (point === 'ledger:after-apply' && crashes++ === 0) throw new Error('crash');
    });
    await expect(clearPlayerRisk(referrer._id, { id: operator.id, username: 'reviewer' }, at(HOUR))).rejects.toThrow('crash');
    onFault(null);
    expect(await rewardEntries(referrer._id)).toBe(first.rewarded);
    expect((await states(referrer._id)).waiting).toBe(first.waiting - 1);
    // the engine's sweep finishes that one without a second credit; the pass pays the rest
    await recoverPendingEntries(0);
    expect(await rewardEntries(referrer._id)).toBe(first.rewarded + 1);
    expect(await releaseWaitingReferrals(at(HOUR))).toBe(first.waiting - 1);
    expect(await states(referrer._id)).toEqual({ rewarded: 12, waiting: 0, other: 0 });
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * 12n);
    expect(await rewardEntries(referrer._id)).toBe(12);
    // a second clearance, and the sweep again: nothing more
    expect((await clearPlayerRisk(referrer._id, { id: operator.id, username: 'reviewer' }, at(HOUR))).released).toBe(0);
    expect(await qualifyReferrals(500, at(2 * HOUR))).toBe(0);
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * 12n);

    // the farm goes on: a score above the one cleared holds the new rewards again
    const cleared = (await UserModel.findById(referrer._id).lean())!.riskCleared;
    await farm(referrer, 20, at(3 * HOUR));
    const now = await states(referrer._id);
    expect((await UserModel.findById(referrer._id).lean())!.risk!.score).toBeGreaterThan(cleared!.score!);
    expect(now.waiting).toBeGreaterThan(0);
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * BigInt(now.rewarded));
  });

  it("is cleared from the console's Risk page by an operator who writes players, who is named in the audit", async () => {
    const coin = await configureReward();
    const referrer = await createPlayer({ createdAt: at(-400 * DAY) });
    // the farm on the server's own clock, a minute ago
    await farm(referrer, 12, new Date(Date.now() - 60_000));
    const { rewarded, waiting } = await states(referrer._id);
    expect(waiting).toBeGreaterThan(0);
    const operator = await createOperator(['users:write']);
    const api = consoleApi(app, operator.token);
    const cleared = await api.post(`/risk/${String(referrer._id)}/clear`);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ released: waiting, cleared: { by: operator.id } });
    expect(await balanceOf(referrer._id, coin._id)).toBe(REWARD * BigInt(rewarded + waiting));
    const shown = await api.get(`/users/${String(referrer._id)}`);
    expect(shown.body.riskCleared).toMatchObject({ score: cleared.body.score, by: operator.id });
    expect(await AuditEntryModel.countDocuments({ account: operator.id, resource: 'users', record: String(referrer._id) })).toBe(1);
    expect((await api.post('/risk/not-an-id/clear')).status).toBe(400);
    expect((await api.post('/risk/0123456789abcdef01234567/clear')).status).toBe(404);
  });
});
