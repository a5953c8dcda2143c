import mongoose from 'mongoose';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createManualMission, createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { commandsDuring } from '../../../test/queryPlans';
import { getAppConfig } from '../config/config.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../missions/mission.models';
import { reviewUserMission } from '../missions/missions.service';
import { qualifyReferrals } from '../referrals/referrals.service';
import { UserModel } from '../users/user.model';
import { upsertFromTelegram } from '../users/users.service';
import { DailyAnalyticsModel } from './analytics.model';
import { rollUpAnalytics } from './analytics.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
// a fixed clock: 10:00 UTC, so the days rolled up are clear of midnight
const now = new Date('2026-11-20T10:00:00.000Z');
const daysAgo = (n: number, hour = 12) => new Date(Date.UTC(2026, 10, 20 - n, hour));
const key = (n: number) => daysAgo(n).toISOString().slice(0, 10);
let api: ReturnType<typeof consoleApi>;
let nextTelegramId = 9_400_000;

/** How many records a console list holds with this filter (its Content-Range total). */
async function listed(resource: string, filter: Record<string, unknown>) {
  return Number((await api.get(`/${resource}`, { filter }).expect(200)).headers['content-range']!.split('/')[1]);
}
/** A date filter on `field` over the whole days from `from` to `to` days ago, as the console's lists take it. */
const between = (field: string, from: number, to: number) => ({
  [`${field}_gte`]: `${key(from)}T00:00:00.000Z`,
  [`${field}_lte`]: `${key(to)}T23:59:59.999Z`,
});
const analytics = async (from: number, to: number, query = '') =>
  (await api.get(`/dashboard/analytics?from=${key(from)}&to=${key(to)}${query}`).expect(200)).body;

/** A player's launch of the mini app inside Telegram on `at` (registering them on the first, with a referrer's code if given). */
async function launch(telegramId: number, at: Date, startParam?: string) {
  return (await upsertFromTelegram({ user: { id: telegramId, first_name: 'Cohort' }, auth_date: 0, start_param: startParam }, at)).user;
}

beforeAll(async () => {
  api = consoleApi(app, (await createOperator(['*'])).token);
});

describe("a mission's funnel and cost", () => {
  it('counts first opens, Go, claims and approvals on their days, and what the approvals paid, as the lists count them', async () => {
    const gift = await createCoin({ symbol: 'FUNNEL' });
    const { mission: manual } = await createManualMission(gift, Number(toMicros('1.5')), 'Post a review');
    const { mission: auto } = await createManualMission(gift, Number(toMicros('2.000001')), 'Visit the site');
    await MissionModel.updateOne({ _id: auto._id }, { $set: { verifyType: 'auto', link: 'https://example.com' } });
    const [p1, p2, p3, p4] = await Promise.all([1, 2, 3, 4].map(() => createPlayer({ createdAt: daysAgo(20) })));
    const at = (player: typeof p1, when: Date) => playerCaller(player!, { now: () => when });
    const manualId = { missionId: String(manual._id) };

    // three players open the Manual mission three days ago; a second open, a day later, records nothing
    for (const player of [p1, p2, p3]) await at(player, daysAgo(3)).missions.open(manualId);
    const again = await commandsDuring(() => at(p1, daysAgo(2)).missions.open(manualId));
    expect(again.filter((command) => command.startsWith('missionopens.'))).toEqual(['missionopens.updateOne']);
    const opens = mongoose.connection.collection('missionopens');
    expect(await opens.find({ user: p1!._id }, { projection: { _id: 0, at: 1 } }).toArray()).toEqual([{ at: daysAgo(3) }]);
    // an id no mission has records nothing
    await at(p1, daysAgo(3)).missions.open({ missionId: String(p1!._id) });
    // they tap Go; two claim two days ago, one is approved yesterday
    for (const player of [p1, p2, p3]) await at(player, daysAgo(3)).missions.go(manualId);
    for (const player of [p1, p2]) await at(player, daysAgo(2)).missions.claim(manualId);
    const claimed = await UserMissionModel.findOne({ user: p1!._id, mission: manual._id }).lean();
    await reviewUserMission(String(claimed!._id), { status: 'done' }, (await createOperator(['*'])).id, daysAgo(1));
    // the Auto mission: opened and claimed at once (the claim starts it), two days ago
    await at(p4, daysAgo(2)).missions.open({ missionId: String(auto._id) });
    await at(p4, daysAgo(2)).missions.claim({ missionId: String(auto._id) });

    expect(await rollUpAnalytics(now)).toBe(20);
    const week = await analytics(6, 1);
    expect(week.through).toBe(key(1));
    expect(week.missions).toEqual([
      {
        mission: String(manual._id),
        title: 'Post a review',
        fa: '',
        opened: 3,
        go: 3,
        claimed: 2,
        approved: 1,
        cost: [{ coin: String(gift._id), symbol: 'FUNNEL', amount: '1.5' }],
      },
      {
        mission: String(auto._id),
        title: 'Visit the site',
        fa: '',
        opened: 1,
        go: 1,
        claimed: 1,
        approved: 1,
        cost: [{ coin: String(gift._id), symbol: 'FUNNEL', amount: '2.000001' }],
      },
    ]);

    // each step equals the count of the players' progress the console lists with the same dates
    for (const [from, to] of [
      [6, 1],
      [2, 1],
      [1, 1],
    ] as const) {
      const figures = await analytics(from, to, `&mission=${manual._id}`);
      const [row] = figures.missions;
      const mission = String(manual._id);
      expect({ go: row?.go ?? 0, claimed: row?.claimed ?? 0, approved: row?.approved ?? 0 }).toEqual({
        go: await listed('user-missions', { mission, ...between('startedAt', from, to) }),
        claimed: await listed('user-missions', { mission, ...between('claimedAt', from, to) }),
        approved: await listed('user-missions', { mission, status: 'done', ...between('doneAt', from, to) }),
      });
    }
    expect((await analytics(2, 1, `&mission=${manual._id}`)).missions).toEqual([
      expect.objectContaining({ opened: 0, go: 0, claimed: 2, approved: 1 }),
    ]);
    // a day rolled up stays as it was: a second pass writes nothing
    expect(await rollUpAnalytics(now)).toBe(0);
  });
});

describe('retention by join cohort', () => {
  it("counts each day's joiners and the share active on D1, D7 and D30, blank until that day is rolled up", async () => {
    const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(() => ++nextTelegramId);
    for (const id of [a, b, c]) await launch(id!, daysAgo(8, 9));
    await launch(d!, daysAgo(1, 9));
    await launch(e!, daysAgo(35, 9));
    // A comes back the next day and a week later; B the next day, twice; C never; E a month later
    await launch(a!, daysAgo(7, 8));
    await launch(a!, daysAgo(1, 8));
    await launch(b!, daysAgo(7, 10));
    const second = await commandsDuring(() => launch(b!, daysAgo(7, 18)));
    expect(second.filter((command) => command.startsWith('activedays.'))).toEqual([]);
    await launch(e!, daysAgo(5, 10));

    await DailyAnalyticsModel.deleteMany({});
    await rollUpAnalytics(now);
    const { cohorts } = await analytics(35, 1);
    const cohort = (n: number) => cohorts.find((row: { day: string }) => row.day === key(n));
    expect(cohorts).toHaveLength(35);
    expect(cohort(8)).toEqual({ day: key(8), joined: 3, d1: 2, d7: 1, d30: null });
    expect(cohort(35)).toEqual({ day: key(35), joined: 1, d1: 0, d7: 0, d30: 1 });
    // yesterday's joiners: their D1 is today, not rolled up yet
    expect(cohort(1)).toEqual({ day: key(1), joined: 1, d1: null, d7: null, d30: null });
    expect(cohort(20)).toMatchObject({ joined: 4 });
    expect(cohort(9)).toEqual({ day: key(9), joined: 0, d1: 0, d7: 0, d30: null });
    // each cohort's size is the count of players the console lists as joined that day
    for (const n of [35, 20, 9, 8, 1]) expect(cohort(n).joined).toBe(await listed('users', between('createdAt', n, n)));
  });
});

describe('referral quality', () => {
  afterAll(() => getAppConfig().then((config) => config.set({ referralQualification: { doneMissions: 0, activeDays: 0 } }).save()));

  it('lists each referrer with friends joined, qualified by the rule, the rate and the rewards paid, the top ones first', async () => {
    const gift = await createCoin({ symbol: 'REF' });
    const config = await getAppConfig();
    config.set({ referrerCoin: gift._id, referrerCoinAmount: Number(toMicros('5')), referralQualification: { doneMissions: 1 } });
    await config.save();
    const [r1, r2, r3] = await Promise.all(['Ana', 'Bo', 'Cy'].map((name) => createPlayer({ name, createdAt: daysAgo(30) })));
    const friendsOf = async (referrer: typeof r1, count: number) => {
      const friends = [];
      for (let i = 0; i < count; i++) friends.push(await launch(++nextTelegramId, daysAgo(4), referrer!.referralCode));
      return friends;
    };
    const [f1, f2] = await friendsOf(r1, 3);
    const [g1] = await friendsOf(r2, 1);
    await friendsOf(r3, 2);
    // three friends do a mission and qualify two days ago; the rewards are posted then
    await UserModel.updateMany({ _id: { $in: [f1!._id, f2!._id, g1!._id] } }, { $set: { doneMissionsCount: 1 } });
    expect(await qualifyReferrals(500, daysAgo(2))).toBe(3);
    await LedgerEntryModel.collection.updateMany({ reason: 'referral' }, { $set: { createdAt: daysAgo(2) } });

    await DailyAnalyticsModel.deleteMany({});
    await rollUpAnalytics(now);
    const byQualified = (await analytics(6, 1)).referrers;
    const paid = (amount: string) => [{ coin: String(gift._id), symbol: 'REF', amount }];
    expect(byQualified).toEqual([
      expect.objectContaining({ referrer: String(r1!._id), name: 'Ana', joined: 3, qualified: 2, rate: 67, paid: paid('10') }),
      expect.objectContaining({ referrer: String(r2!._id), name: 'Bo', joined: 1, qualified: 1, rate: 100, paid: paid('5') }),
      expect.objectContaining({ referrer: String(r3!._id), name: 'Cy', joined: 2, qualified: 0, rate: 0, paid: [] }),
    ]);
    expect((await analytics(6, 1, '&sort=rate')).referrers.map((row: { name: string }) => row.name)).toEqual(['Bo', 'Ana', 'Cy']);
    expect((await analytics(6, 1, '&sort=joined')).referrers.map((row: { name: string }) => row.name)).toEqual(['Ana', 'Cy', 'Bo']);

    // each figure equals what the console's lists count with the same dates
    for (const [from, to] of [
      [6, 1],
      [3, 1],
      [4, 4],
    ] as const) {
      const { referrers } = await analytics(from, to);
      for (const referrer of [r1, r2, r3].map((r) => String(r!._id))) {
        const row = referrers.find((r: { referrer: string }) => r.referrer === referrer);
        const entries = (
          await api.get('/ledger-entries', { filter: { user: referrer, reason: 'referral', ...between('createdAt', from, to) } })
        ).body as Array<{ amount: string }>;
        expect({ joined: row?.joined ?? 0, qualified: row?.qualified ?? 0, paid: row?.paid ?? [] }).toEqual({
          joined: await listed('users', { referrer, ...between('createdAt', from, to) }),
          qualified: await listed('users', { referrer, ...between('referralQualifiedAt', from, to) }),
          paid: entries.length ? paid(String(entries.reduce((sum, entry) => sum + Number(entry.amount), 0))) : [],
        });
      }
    }
    await expect(api.get('/dashboard/analytics?sort=name').expect(400)).resolves.toBeDefined();
  });
});

describe('loading the analytics', () => {
  it('reads the rolled-up days alone, through their index, whatever the number of records', async () => {
    const load = () => commandsDuring(() => analytics(60, 1));
    const commands = await load();
    // besides the operator's sign-in (their account and session)
    expect([...new Set(commands)].filter((command) => !/^(accounts|operatorsessions)\./.test(command)).sort()).toEqual([
      'dailyanalytics.find',
      'dailyanalytics.findOne',
      'giftcoins.find',
      'missions.find',
      'users.find',
    ]);
    // more players and records change nothing in what a load reads
    await Promise.all(Array.from({ length: 20 }, () => createPlayer({ createdAt: daysAgo(3) })));
    expect((await load()).length).toBe(commands.length);
  });

  it('tells an account only the parts its permissions let it read', async () => {
    const reviewer = consoleApi(app, (await createOperator(['user-missions:read'])).token);
    const body = (await reviewer.get('/dashboard/analytics').expect(200)).body;
    expect(body).toMatchObject({ missions: expect.any(Array), cohorts: null, referrers: null });
    const players = consoleApi(app, (await createOperator(['users:read'])).token);
    expect((await players.get('/dashboard/analytics').expect(200)).body).toMatchObject({
      missions: null,
      cohorts: expect.any(Array),
      referrers: expect.any(Array),
    });
  });
});
