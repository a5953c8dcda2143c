import { toMicros } from '@gift/shared';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { StakeModel, StakingCoinModel } from '../staking/staking.models';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { DailyFiguresModel } from './dailyFigures.model';
import { dashboardFigures, refreshLiveFigures, rollUpClosedDays } from './dashboard.service';

const DAY = 24 * 60 * 60 * 1000;
const everything = () => true;
// a fixed clock: 10:00 UTC, so "an hour after the day ended" is clear of midnight
const now = new Date('2026-11-20T10:00:00.000Z');
const daysAgo = (n: number, hour = 12) => new Date(Date.UTC(2026, 10, 20 - n, hour));

describe("the dashboard's closed days", () => {
  it('rolls each closed day up once, and answers the same figures from the records as it did live', async () => {
    const coin = await createCoin({ symbol: 'DAYS' });
    const players = await Promise.all([1, 2, 2, 5, 40].map((n) => createPlayer({ createdAt: daysAgo(n), lastSeenAt: daysAgo(n) })));
    for (const [i, player] of players.entries()) {
      const entry = await fund(player._id, coin._id, String(i + 1));
      await LedgerEntryModel.updateOne({ _id: entry.entryId }, { $set: { createdAt: daysAgo(i + 1) } });
    }
    await WithdrawalModel.create({
      user: players[0]!._id,
      coin: coin._id,
      amount: 1_000_000,
      address: 'UQa',
      idempotencyKey: 'days-1',
      createdAt: daysAgo(2),
    });
    const offer = await StakingCoinModel.create({ coin: coin._id, minAmount: 1, maxAmount: 1e12, profits: { week: '5' } });
    const stake = {
      user: players[1]!._id,
      stakingCoin: offer._id,
      coin: coin._id,
      duration: 'week' as const,
      profitPercent: '5',
      profit: 0,
      unlocksAt: now,
      state: 'open' as const,
    };
    await StakeModel.create([
      { ...stake, amount: Number(toMicros('7')), startedAt: daysAgo(10), idempotencyKey: 'days-a' },
      { ...stake, amount: Number(toMicros('3')), startedAt: daysAgo(9), claimedAt: daysAgo(1), idempotencyKey: 'days-b' },
    ]);

    const live = await dashboardFigures(now, everything);
    expect(live.chart.find((day) => day.date === '2026-11-18')).toEqual({ date: '2026-11-18', newPlayers: 2, claims: 0, withdrawals: 1 });
    expect(live.coinsIssued).toEqual([{ coin: String(coin._id), symbol: 'DAYS', amount: '15' }]);
    expect(live.stakedLocked).toEqual([{ coin: String(coin._id), symbol: 'DAYS', amount: '7' }]);

    // from the first player's day up to yesterday, which ended ten hours ago
    const rolled = await rollUpClosedDays(now);
    expect(rolled).toBe(40);
    expect(await DailyFiguresModel.countDocuments()).toBe(40);
    // the live figures now count today alone, the closed days come from their records
    expect(await refreshLiveFigures(now, { force: true })).toMatchObject({
      since: new Date('2026-11-20T00:00:00.000Z'),
      days: [{ day: '2026-11-20' }],
    });
    expect(await dashboardFigures(now, everything)).toEqual(live);

    // a second pass, or a second instance, rolls nothing up again
    expect(await rollUpClosedDays(now)).toBe(0);
    expect(await dashboardFigures(now, everything)).toEqual(live);

    // a new player today shows once the live figures are recounted (by the sweep, every 30 s), not before
    await createPlayer({ createdAt: now, lastSeenAt: now });
    expect((await dashboardFigures(now, everything)).newToday).toBe(live.newToday);
    await refreshLiveFigures(new Date(now.getTime() + 31_000));
    expect((await dashboardFigures(now, everything)).newToday).toBe(live.newToday! + 1);
  });

  it('waits an hour after a day ends before rolling it up', async () => {
    await DailyFiguresModel.deleteMany({});
    await createPlayer({ createdAt: daysAgo(3) });
    const justAfterMidnight = new Date('2026-11-21T00:30:00.000Z');
    await rollUpClosedDays(justAfterMidnight);
    expect(await DailyFiguresModel.exists({ day: '2026-11-19' })).not.toBeNull();
    expect(await DailyFiguresModel.exists({ day: '2026-11-20' })).toBeNull();
    await rollUpClosedDays(new Date(justAfterMidnight.getTime() + DAY / 24));
    expect(await DailyFiguresModel.exists({ day: '2026-11-20' })).not.toBeNull();
  });
});
