import { Types } from 'mongoose';
import { createApp } from '../../app';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { GiftApprovalModel } from '../gifts/giftApproval.model';
import { CategoryModel } from '../content/content.models';
import { refreshLiveFigures, rollUpClosedDays } from './dashboard.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const DAY = 24 * 60 * 60 * 1000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
const key = (date: Date) => date.toISOString().slice(0, 10);

describe('GET /api/admin/dashboard?from&to', () => {
  it('answers a chosen range and the period before it, with the counts of the lists, rolled up or not', async () => {
    const gift = await createCoin({ symbol: 'GIFT' });
    for (const daysAgo of [0, 2, 3, 3, 9, 12, 15]) await createPlayer({ createdAt: day(daysAgo), lastSeenAt: day(daysAgo) });
    const player = await createPlayer({ createdAt: day(1) });
    const entry = await fund(player._id, gift._id, '7.25');
    // the collection itself: mongoose keeps createdAt immutable
    await LedgerEntryModel.collection.updateOne({ _id: new Types.ObjectId(entry.entryId) }, { $set: { createdAt: day(2) } });
    await fund(player._id, gift._id, '1');
    await WithdrawalModel.create([
      { user: player._id, coin: gift._id, amount: 1_000_000, address: 'UQz', idempotencyKey: 'range-1', createdAt: day(4) },
      { user: player._id, coin: gift._id, amount: 1_000_000, address: 'UQz', idempotencyKey: 'range-2', createdAt: day(8) },
    ]);
    const api = consoleApi(app, (await createOperator(['*'])).token);
    const [from, to] = [key(day(6)), key(day(1))];
    const listed = async (resource: string) => {
      const filter = { createdAt_gte: `${from}T00:00:00.000Z`, createdAt_lte: `${to}T23:59:59.999Z` };
      return Number((await api.get(`/${resource}`, { filter }).expect(200)).headers['content-range']!.split('/')[1]);
    };

    const live = (await api.get(`/dashboard?from=${from}&to=${to}`).expect(200)).body;
    expect(live.range).toEqual({ from, to });
    expect(live.chart.map((row: { date: string }) => row.date)).toEqual([6, 5, 4, 3, 2, 1].map((n) => key(day(n))));
    expect(live.period).toEqual({
      newPlayers: await listed('users'),
      claims: 0,
      withdrawals: await listed('withdraws'),
      coinsIssued: [expect.objectContaining({ symbol: 'GIFT', amount: '7.25' })],
    });
    expect(live.period).toMatchObject({ newPlayers: 4, withdrawals: 1 });
    expect(live.previousPeriod).toMatchObject({ from: key(day(12)), to: key(day(7)), newPlayers: 2, withdrawals: 1, coinsIssued: [] });
    expect(Date.now() - Date.parse(live.asOf)).toBeLessThan(5 * 60_000);

    // as the sweep keeps them: closed days rolled up once, the live figures recounted after
    await rollUpClosedDays(new Date());
    await refreshLiveFigures(new Date(), { force: true });
    const rolled = (await api.get(`/dashboard?from=${from}&to=${to}`).expect(200)).body;
    expect({ period: rolled.period, previous: rolled.previousPeriod, chart: rolled.chart }).toEqual({
      period: live.period,
      previous: live.previousPeriod,
      chart: live.chart,
    });

    const byDefault = (await api.get('/dashboard').expect(200)).body;
    expect(byDefault.range).toEqual({ from: key(day(29)), to: key(day(0)) });
    expect(byDefault.period).toMatchObject({ newPlayers: 8, coinsIssued: [expect.objectContaining({ amount: '8.25' })] });
  });

  it('refuses a range it cannot read, saying which end is wrong', async () => {
    const api = consoleApi(app, (await createOperator(['*'])).token);
    const refused = async (query: string) => (await api.get(`/dashboard?${query}`).expect(400)).body.errors;
    expect(await refused('from=2026-05-10&to=2026-05-01')).toEqual({ from: 'The start comes after the end' });
    expect(await refused('from=yesterday')).toEqual({ from: 'Use a date as YYYY-MM-DD' });
    expect(await refused('to=2026-02-30')).toEqual({ to: 'Use a date as YYYY-MM-DD' });
    expect(await refused('from=2024-01-01&to=2025-06-01')).toEqual({ from: 'At most 366 days' });
    expect(await refused('from=2999-01-01')).toEqual({ from: 'The start comes after the end' });
    expect(await refused('from=2026-01-01&from=2026-01-02')).toEqual({ from: expect.any(String) });
  });

  it('tells an account without the players permission no coins issued in the period', async () => {
    const res = await consoleApi(app, (await createOperator(['withdraws:read'])).token)
      .get('/dashboard?from=2026-01-01&to=2026-01-31')
      .expect(200);
    expect(res.body.period).toEqual({ newPlayers: null, claims: null, withdrawals: 0, coinsIssued: null });
    expect(res.body.chart).toHaveLength(31);
  });

  it('gives an operator who decides gifts the count waiting for a second operator, and no more', async () => {
    const coin = await createCoin({ symbol: 'GW' });
    const player = await createPlayer();
    const asker = await createOperator(['gifts:write', 'users:write']);
    const gift = { user: player._id, coin: coin._id, amount: 5_000_000, requestedBy: asker.id };
    await GiftApprovalModel.create([
      { ...gift, idempotencyKey: 'admin:wait-1' },
      { ...gift, idempotencyKey: 'admin:wait-2' },
      { ...gift, idempotencyKey: 'admin:done-1', status: 'applied' },
    ]);
    await refreshLiveFigures(new Date(), { force: true });
    const gifts = (
      await consoleApi(app, (await createOperator(['gifts:write'])).token)
        .get('/dashboard')
        .expect(200)
    ).body;
    expect(gifts).toMatchObject({ giftsWaiting: 2, grantsWaiting: null, players: null, pendingWithdrawals: null });
    const players = (
      await consoleApi(app, (await createOperator(['users:read'])).token)
        .get('/dashboard')
        .expect(200)
    ).body;
    expect(players).toMatchObject({ giftsWaiting: null, grantsWaiting: null, players: expect.any(Number) });
  });

  it('lists the brake changes waiting to an operator who may decide them, each by its record, and hides them from the rest', async () => {
    const asker = await createOperator(['gift-coins:write', 'missions:write']);
    const console = consoleApi(app, asker.token);
    // a coin whose gift brake is off (0: never) waits for a second operator, as does a mission's reward above its coin's
    const coin = await console
      .post('/gift-coins', { name: 'Points', symbol: 'BRK', network: 'jetton', giftApprovalAbove: '0' })
      .expect(201);
    expect(coin.body.waitingChange).toMatchObject({ id: expect.any(String) });
    const category = await CategoryModel.create({ title: 'Stories' });
    const reward = { category: String(category._id), coin: String((await createCoin())._id), verifyType: 'auto', link: 'https://t.me/x' };
    const mission = await console.post('/missions', { ...reward, title: 'Share the channel', reward: '3000' }).expect(201);
    expect(mission.body.waiting).toMatchObject({ id: expect.any(String) });
    await refreshLiveFigures(new Date(), { force: true });

    const dashboardOf = async (permissions: string[]) =>
      (
        await consoleApi(app, (await createOperator(permissions)).token)
          .get('/dashboard')
          .expect(200)
      ).body;
    const coins = await dashboardOf(['gift-coins:write']);
    expect(coins.changesWaiting).toEqual({
      count: 1,
      newest: [
        {
          id: coin.body.waitingChange.id,
          resource: 'gift-coins',
          record: coin.body.id,
          name: 'BRK',
          by: asker.account.username,
          at: expect.any(String),
        },
      ],
    });
    // both, the newest first
    const both = await dashboardOf(['*']);
    expect(both.changesWaiting.count).toBe(2);
    expect(both.changesWaiting.newest.map((change: { resource: string; name: string }) => [change.resource, change.name])).toEqual([
      ['missions', 'Share the channel'],
      ['gift-coins', 'BRK'],
    ]);
    // reading the coins is not deciding their brakes
    expect((await dashboardOf(['gift-coins:read', 'users:read'])).changesWaiting).toBeNull();
  });
});
