import { fromMicros } from '@gift/shared';
import { onFault } from '../../lib/faults';
import { AppConfigModel } from '../config/appConfig.model';
import { getAppConfig } from '../config/config.service';
import { CategoryModel } from '../content/content.models';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { OperationModel } from '../ledger/operation.model';
import { balanceOf } from '../ledger/ledger.service';
import { UserModel } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { countEarlierCompletions, forgetDonePlaceKeys, reviewUserMission } from './missions.service';
import { recoverPendingEntries } from '../ledger/ledger.service';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';

const REVIEWER = '65f0c0ffee0000000000abcd';

async function createMission(fields: Record<string, unknown> = {}) {
  const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Campaigns' }), createCoin()]);
  const mission = new MissionModel();
  mission.set({
    category: category._id,
    coin: coin._id,
    title: 'Campaign',
    link: 'https://example.com',
    reward: '5',
    verifyType: 'auto',
    ...fields,
  });
  return mission.save();
}

/** What each of many claims ended in: the codes of the refusals, and how many were credited. */
function outcomesOf(results: PromiseSettledResult<unknown>[]) {
  const refusals = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { cause?: { code?: string } }).cause?.code] : []));
  return { credited: results.filter((r) => r.status === 'fulfilled').length, refusals: new Set(refusals) };
}

afterEach(() => onFault(null));

describe('a completion cap', () => {
  it('credits exactly the cap when 200 players race for 50 places, and refuses the others once each', async () => {
    const mission = await createMission({ cap: 50 });
    const players = await Promise.all(Array.from({ length: 200 }, () => createPlayer()));

    const results = await Promise.allSettled(players.map((p) => playerCaller(p).missions.claim({ missionId: String(mission._id) })));

    const { credited, refusals } = outcomesOf(results);
    expect(credited).toBe(50);
    expect(refusals).toEqual(new Set(['MISSION_FULL']));
    expect(await LedgerEntryModel.countDocuments({ reason: 'mission', refType: 'UserMission' })).toBe(50);
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(50);
    // each place under its operation's key, forgotten once the operation is done
    expect(await forgetDonePlaceKeys()).toBe(50);
    expect((await MissionModel.findById(mission._id).lean())!.placeKeys).toEqual([]);
    // a full mission says so to the players who have no place in it
    const page = await playerCaller(players.find((_, i) => results[i]!.status === 'rejected')!).missions.byCategory({
      categoryId: String(mission.category),
    });
    expect(page.missions[0]).toMatchObject({ full: true, status: 'started' });
    for (const player of players.slice(0, 20)) await expectLedgerMatchesBalances(player._id);
  });

  it('counts a claim waiting for review, and gives its place back when it is rejected', async () => {
    const mission = await createMission({ verifyType: 'manual', cap: 1 });
    const [first, second] = await Promise.all([createPlayer(), createPlayer()]);
    const missionId = String(mission._id);
    await playerCaller(first).missions.go({ missionId });
    await playerCaller(second).missions.go({ missionId });

    expect(await playerCaller(first).missions.claim({ missionId })).toMatchObject({ status: 'pending' });
    await expect(playerCaller(second).missions.claim({ missionId })).rejects.toMatchObject({ cause: { code: 'MISSION_FULL' } });

    const waiting = (await UserMissionModel.findOne({ user: first._id, mission: mission._id }))!;
    await reviewUserMission(String(waiting._id), { status: 'rejected', rejectReason: 'No story found' }, REVIEWER, new Date());
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(0);
    expect(await playerCaller(second).missions.claim({ missionId })).toMatchObject({ status: 'pending' });
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(1);
  });

  it('finishes claims killed before taking their place by the sweep alone, never past the cap', async () => {
    const mission = await createMission({ cap: 2 });
    const [first, second, newcomer] = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
    const missionId = String(mission._id);
    // both claims' operations recorded, then the process dies: no place taken yet
    onFault((point, kind) => {
      if (point === 'ledger:after-record' && kind === 'mission-credit') throw new Error('killed');
    });
    await expect(playerCaller(first).missions.claim({ missionId })).rejects.toThrow('killed');
    await expect(playerCaller(second).missions.claim({ missionId })).rejects.toThrow('killed');
    onFault(null);
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(0);
    // a newcomer takes a place meanwhile
    expect(await playerCaller(newcomer).missions.claim({ missionId })).toMatchObject({ status: 'done' });

    // neither comes back: the sweep admits the older one into the last place and refuses the other, leaving nothing of it
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await OperationModel.countDocuments({ kind: 'mission-credit', state: { $ne: 'done' } })).toBe(0);
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(2);
    expect(await UserMissionModel.countDocuments({ mission: mission._id, status: 'done' })).toBe(2);
    expect(await UserMissionModel.countDocuments({ user: second._id })).toBe(0);
    expect(await balanceOf(first._id, mission.coin)).toBe(BigInt(mission.reward));
    expect(await balanceOf(second._id, mission.coin)).toBe(0n);
    await expect(playerCaller(second).missions.claim({ missionId })).rejects.toMatchObject({ cause: { code: 'MISSION_FULL' } });
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(2);
  });

  it('takes no second place when the sweep finishes a claim while the claim itself goes on', async () => {
    const mission = await createMission({ cap: 1 });
    const player = await createPlayer();
    const missionId = String(mission._id);
    // the sweep runs the same operation between the claim's place and its credit (a claim slower than the sweep's grace)
    let swept = false;
    onFault(async (point, kind) => {
      if (point === 'ledger:after-apply' && kind === 'mission-credit' && !swept) {
        swept = true;
        await recoverPendingEntries(0);
      }
    });
    expect(await playerCaller(player).missions.claim({ missionId })).toMatchObject({ status: 'done' });
    onFault(null);
    expect(swept).toBe(true);
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(1);
    expect(await balanceOf(player._id, mission.coin)).toBe(BigInt(mission.reward));
    await expectLedgerMatchesBalances(player._id);
  });

  it('counts once the completions of a mission from before the counter', async () => {
    const mission = await createMission();
    const players = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
    const progress = (user: unknown, status: string) => ({
      user,
      mission: mission._id,
      category: mission.category,
      coin: mission.coin,
      status,
    });
    await UserMissionModel.insertMany([
      progress(players[0]._id, 'done'),
      progress(players[1]._id, 'pending'),
      progress(players[2]._id, 'started'),
    ]);
    await MissionModel.updateOne({ _id: mission._id }, { $unset: { completions: 1, completionsCounted: 1 } });

    await countEarlierCompletions();
    await countEarlierCompletions();
    expect((await MissionModel.findById(mission._id).lean())!.completions).toBe(2);
  });
});

describe('start and end times', () => {
  const NOW = new Date('2026-06-01T12:00:00Z');
  const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

  it('shows a mission only inside its times, with its end for the countdown, and refuses a claim outside them', async () => {
    const open = await createMission({ title: 'Open', startsAt: hours(-1), endsAt: hours(30) });
    const category = open.category;
    const later = await createMission({ title: 'Later', category, startsAt: hours(2) });
    const over = await createMission({ title: 'Over', category, endsAt: hours(-1) });
    const caller = playerCaller(await createPlayer(), { now: () => NOW });

    const page = await caller.missions.byCategory({ categoryId: String(category) });
    expect(page.missions.map((m) => [m.title, m.endsAt])).toEqual([['Open', hours(30)]]);
    await expect(caller.missions.claim({ missionId: String(later._id) })).rejects.toMatchObject({ cause: { code: 'NOT_FOUND' } });
    await expect(caller.missions.go({ missionId: String(later._id) })).rejects.toMatchObject({ cause: { code: 'NOT_FOUND' } });
    await expect(caller.missions.claim({ missionId: String(over._id) })).rejects.toMatchObject({ cause: { code: 'MISSION_ENDED' } });
    expect(await caller.missions.claim({ missionId: String(open._id) })).toMatchObject({ status: 'done' });

    // two hours on, the later one has started
    const afterwards = playerCaller(await createPlayer(), { now: () => hours(2) });
    expect((await afterwards.missions.byCategory({ categoryId: String(category) })).missions.map((m) => m.title)).toEqual([
      'Open',
      'Later',
    ]);
  });
});

describe('a daily mission', () => {
  beforeEach(async () => {
    await getAppConfig();
    // Tehran is UTC+3:30: its day turns at 20:30 UTC
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { timezone: 'Asia/Tehran', streakMilestones: [] } });
  });

  it('credits once per day in the App Config timezone, again after its midnight', async () => {
    const mission = await createMission({ repeat: 'daily', reward: '3' });
    const player = await createPlayer();
    const claimAt = (iso: string) => playerCaller(player, { now: () => new Date(iso) }).missions.claim({ missionId: String(mission._id) });

    expect(await claimAt('2026-11-26T20:00:00Z')).toMatchObject({ status: 'done' });
    // 23:50 in Tehran: still the same day
    await expect(claimAt('2026-11-26T20:20:00Z')).rejects.toMatchObject({ cause: { code: 'ALREADY_DONE' } });
    // 00:10 in Tehran: a new day, though still the 26th in UTC
    const racing = await Promise.allSettled(Array.from({ length: 20 }, () => claimAt('2026-11-26T20:40:00Z')));
    expect(outcomesOf(racing)).toEqual({ credited: 1, refusals: new Set(['ALREADY_DONE']) });

    expect(fromMicros(await balanceOf(player._id, mission.coin))).toBe('6');
    const days = await UserMissionModel.find({ user: player._id, mission: mission._id }, { day: 1 }).sort({ day: 1 }).lean();
    expect(days.map((d) => d.day)).toEqual(['2026-11-26', '2026-11-27']);
    const page = await playerCaller(player, { now: () => new Date('2026-11-27T10:00:00Z') }).missions.byCategory({
      categoryId: String(mission.category),
    });
    expect(page.missions[0]).toMatchObject({ repeat: 'daily', status: 'done' });
    const tomorrow = await playerCaller(player, { now: () => new Date('2026-11-27T21:00:00Z') }).missions.byCategory({
      categoryId: String(mission.category),
    });
    expect(tomorrow.missions[0]).toMatchObject({ status: 'not_started' });
  });

  it('builds a streak of days that pays each milestone once, and starts again after a missed day', async () => {
    const mission = await createMission({ repeat: 'daily', reward: '1' });
    const bonus = await createCoin({ symbol: 'BONUS' });
    await AppConfigModel.updateOne(
      { key: 'app' },
      {
        $set: {
          streakMilestones: [
            { days: 2, coin: bonus._id, amount: 10_000_000 },
            { days: 3, coin: bonus._id, amount: 30_000_000 },
          ],
        },
      },
    );
    const player = await createPlayer();
    const onDay = (day: string) => playerCaller(player, { now: () => new Date(`${day}T08:00:00Z`) });
    const claim = (day: string) => onDay(day).missions.claim({ missionId: String(mission._id) });
    const streakOn = async (day: string) => {
      const fresh = (await UserModel.findById(player._id))!;
      return (await playerCaller(fresh, { now: () => new Date(`${day}T08:00:00Z`) }).home.get()).streak;
    };

    await claim('2026-03-01');
    expect(await streakOn('2026-03-01')).toEqual({ days: 1, doneToday: true, next: { days: 2, amount: '10', symbol: 'BONUS' } });
    await claim('2026-03-02');
    await claim('2026-03-03');
    expect(fromMicros(await balanceOf(player._id, bonus._id))).toBe('40');
    expect(await streakOn('2026-03-04')).toEqual({ days: 3, doneToday: false, next: null });

    // 5 March is missed: the streak is over, and the next day begins a new one, whose milestones pay again
    expect((await streakOn('2026-03-06')).days).toBe(0);
    await claim('2026-03-06');
    await claim('2026-03-07');
    expect(fromMicros(await balanceOf(player._id, bonus._id))).toBe('50');
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'streak' })).toBe(3);
    await expectLedgerMatchesBalances(player._id);
  });

  it('counts a streak day once when the credit is finished after a crash', async () => {
    const mission = await createMission({ repeat: 'daily' });
    const bonus = await createCoin();
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { streakMilestones: [{ days: 1, coin: bonus._id, amount: 1_000_000 }] } });
    const player = await createPlayer();
    const caller = playerCaller(player, { now: () => new Date('2026-04-10T08:00:00Z') });
    onFault((point) => {
      if (point === 'ledger:after-apply') throw new Error('killed');
    });
    await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toThrow();
    onFault(null);
    // the repeat of the claim finishes the credit: the day counts once, and its milestone pays once
    await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({ cause: { code: 'ALREADY_DONE' } });
    await expect(caller.missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({ cause: { code: 'ALREADY_DONE' } });
    expect((await UserModel.findById(player._id).lean())!.streak).toMatchObject({ days: 1, lastDay: '2026-04-10' });
    expect(fromMicros(await balanceOf(player._id, bonus._id))).toBe('1');
    // the credit's operation is done: nothing owed is left
    expect(await OperationModel.countDocuments({ user: player._id, kind: 'mission-credit', state: { $ne: 'done' } })).toBe(0);
  });
});
