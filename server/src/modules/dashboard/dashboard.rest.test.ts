import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createManualMission, createPlayer, fund } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { MiningSessionModel } from '../mining/miningSession.model';
import { UserMissionModel } from '../missions/mission.models';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const DAY = 24 * 60 * 60 * 1000;

describe('GET /api/admin/dashboard', () => {
  it('answers every figure in one call, with 30 days of new players, claims and withdrawals', async () => {
    const now = Date.now();
    const gift = await createCoin({ symbol: 'GIFT', order: 1 });
    const ton = await createCoin({ symbol: 'TON', order: 0 });
    const today = await createPlayer();
    const old = await createPlayer({ createdAt: new Date(now - 3 * DAY), lastSeenAt: new Date(now - 3 * DAY) });
    await createPlayer({ createdAt: new Date(now - 40 * DAY), lastSeenAt: new Date(now - 40 * DAY) });
    await fund(today._id, gift._id, '12.5');
    await fund(old._id, ton._id, '1');
    const { category, mission } = await createManualMission(gift, 1_000_000, 'Dash');
    const progress = { mission: mission._id, category: category._id, coin: gift._id, reward: 1_000_000 };
    await UserMissionModel.create([
      { ...progress, user: today._id, status: 'done' as const, doneAt: new Date() },
      { ...progress, user: old._id, status: 'pending' as const },
    ]);
    await WithdrawalModel.create([
      { user: today._id, coin: gift._id, amount: 2_500_000, address: 'UQx', idempotencyKey: 'dash-1' },
      { user: old._id, coin: gift._id, amount: 1_000_000, address: 'UQy', idempotencyKey: 'dash-2' },
      { user: old._id, coin: ton._id, amount: 500_000, address: 'UQy', idempotencyKey: 'dash-3', status: 'done' as const },
    ]);
    await MiningSessionModel.create({
      user: today._id,
      coin: gift._id,
      amount: 10_000_000,
      startedAt: new Date(),
      endsAt: new Date(now + DAY),
      slot: String(today._id),
    });

    const res = await consoleApi(app, (await createOperator(['*'])).token)
      .get('/dashboard')
      .expect(200);
    expect(res.body).toMatchObject({
      players: 3,
      newToday: 1,
      activeToday: 1,
      missionsDoneToday: 1,
      reviewsWaiting: 1,
      pendingWithdrawals: { count: 2, byCoin: [{ symbol: 'GIFT', amount: '3.5', count: 2 }] },
      coinsIssued: [
        { symbol: 'TON', amount: '1' },
        { symbol: 'GIFT', amount: '12.5' },
      ],
      miningRunning: 1,
      stakedLocked: [],
    });
    expect(res.body.chart).toHaveLength(30);
    const last = res.body.chart[29];
    expect(last).toEqual({ date: new Date().toISOString().slice(0, 10), newPlayers: 1, claims: 1, withdrawals: 3 });
    expect(res.body.chart[26].newPlayers).toBe(1);
    expect(res.body.chart.reduce((sum: number, day: { newPlayers: number }) => sum + day.newPlayers, 0)).toBe(2);
  });

  it('tells an account only what its permissions let it read', async () => {
    const res = await consoleApi(app, (await createOperator(['missions:write'])).token)
      .get('/dashboard')
      .expect(200);
    expect(res.body).toMatchObject({ players: null, reviewsWaiting: null, pendingWithdrawals: null, coinsIssued: null });
    expect(Object.keys(res.body.chart[0])).toEqual(['date']);
    const reviewer = await consoleApi(app, (await createOperator(['user-missions:read'])).token)
      .get('/dashboard')
      .expect(200);
    expect(reviewer.body.reviewsWaiting).toEqual(expect.any(Number));
    expect(reviewer.body.players).toBeNull();
  });

  it('needs a signed-in operator', async () => {
    const res = await consoleApi(app, 'not-a-token').get('/dashboard');
    expect(res.status).toBe(401);
  });
});
