import { fromMicros, toMicros } from '@gift/shared';
import { AppConfigModel } from '../config/appConfig.model';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf } from '../ledger/ledger.service';
import { MiningSessionModel } from './miningSession.model';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';

const START = new Date('2025-03-01T08:00:00Z');
const atHour = (h: number) => () => new Date(START.getTime() + h * 3_600_000);

async function configureMining(earnAmount: string, earnDurationHours = 8) {
  const coin = await createCoin({ symbol: 'MINE' });
  await AppConfigModel.updateOne(
    { key: 'app' },
    { $set: { miningCoin: coin._id, earnAmount: Number(toMicros(earnAmount)), earnDurationHours } },
    { upsert: true },
  );
  return coin;
}

describe('mining', () => {
  it('is not available until App Config names a coin and an amount', async () => {
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { miningCoin: null, earnAmount: 0 } }, { upsert: true });
    const caller = playerCaller(await createPlayer());
    await expect(caller.mining.start()).rejects.toMatchObject({ cause: { code: 'NOT_CONFIGURED' } });
    expect(await caller.mining.status()).toMatchObject({ configured: false, active: null, readyToMove: 0 });
  });

  it('shows progress at server time, then moves the finished reward to the wallet once', async () => {
    const coin = await configureMining('8', 8);
    const player = await createPlayer();
    const at = (h: number) => playerCaller(player, { now: atHour(h) });

    await at(0).mining.start();
    expect(await at(2).mining.status()).toMatchObject({
      configured: true,
      active: { startedAt: atHour(0)(), endsAt: atHour(8)(), minedSoFar: '2', ratePerHour: '1', remainingSeconds: 6 * 3600 },
      readyToMove: 0,
      coin: { id: String(coin._id), symbol: 'MINE' },
      earnAmount: '8',
      earnDurationHours: 8,
      serverTime: atHour(2)(),
    });
    await expect(at(2).mining.start()).rejects.toMatchObject({ message: 'Mining is already running' });
    await expect(at(7.9).mining.move()).rejects.toMatchObject({ message: 'Nothing to move' });

    expect(await at(9).mining.status()).toMatchObject({
      active: null,
      readyToMove: 1,
      readyAmounts: [{ coin: { symbol: 'MINE' }, amount: '8' }],
    });
    expect(await at(9).mining.move()).toEqual({
      count: 1,
      amounts: [{ coin: { id: String(coin._id), symbol: 'MINE' }, amount: '8' }],
      message: 'Moved 1 mining rewards to wallet',
    });
    expect(fromMicros(await balanceOf(player._id, coin._id))).toBe('8');
    await expect(at(9).mining.move()).rejects.toMatchObject({ cause: { code: 'NOTHING_TO_MOVE' } });

    // a finished session frees the player to start the next one
    await at(9).mining.start();
    expect((await at(10).mining.status()).active).toMatchObject({ minedSoFar: '1' });
    await expectLedgerMatchesBalances(player._id);
  });

  // a hundred callers queue on the one in-process test database: give them time on a busy machine
  it('starts one session for 100 simultaneous taps', async () => {
    await configureMining('5');
    const player = await createPlayer();
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => playerCaller(player, { now: atHour(0) }).mining.start()));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await MiningSessionModel.countDocuments({ user: player._id })).toBe(1);
  }, 60_000);

  it('credits each finished session once across 100 simultaneous moves', async () => {
    const coin = await configureMining('1.000001', 1);
    const player = await createPlayer();
    for (const h of [0, 1, 2]) await playerCaller(player, { now: atHour(h) }).mining.start();

    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => playerCaller(player, { now: atHour(5) }).mining.move()));

    const counts = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.count] : []));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ cause: { code: 'NOTHING_TO_MOVE' } });
    expect(fromMicros(await balanceOf(player._id, coin._id))).toBe('3.000003');
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'mining' })).toBe(3);
    expect(await MiningSessionModel.countDocuments({ user: player._id, movedAt: null })).toBe(0);
    await expectLedgerMatchesBalances(player._id);
  }, 60_000);
});

describe('mining when the server clock steps', () => {
  it('shows a moved session neither running nor ready after the clock steps back before its end, and Start begins the next', async () => {
    await configureMining('8', 8);
    const player = await createPlayer();
    const at = (h: number) => playerCaller(player, { now: atHour(h) });
    await at(0).mining.start();
    await at(9).mining.move();

    // the clock steps back 5 hours: the moved session would end "in 1 hour", but it is not running any more
    expect(await at(4).mining.status()).toMatchObject({ active: null, readyToMove: 0 });
    await at(4).mining.start();
    expect((await at(5).mining.status()).active).toMatchObject({ startedAt: atHour(4)(), minedSoFar: '1' });
  });

  it('keeps an ended session that gave its slot back ready to move after the clock steps back before its end', async () => {
    await configureMining('8', 8);
    const player = await createPlayer();
    const at = (h: number) => playerCaller(player, { now: atHour(h) });
    await at(0).mining.start();
    // ended at 8, not moved; a Start at 9 takes the slot back for a new session
    await at(9).mining.start();
    // the clock steps back to 6: the first session ended once, so it is still waiting to move, not lost in between
    expect(await at(6).mining.status()).toMatchObject({ readyToMove: 1, readyAmounts: [expect.objectContaining({ amount: '8' })] });
    expect(await at(6).mining.move()).toMatchObject({ count: 1 });
    await expectLedgerMatchesBalances(player._id);
  });

  it('shows a session started "later" as running, just started, when the clock steps back before its start, and Start agrees', async () => {
    await configureMining('8', 8);
    const player = await createPlayer();
    const at = (h: number) => playerCaller(player, { now: atHour(h) });
    await at(10).mining.start();

    const status = await at(7).mining.status();
    expect(status.active).toMatchObject({ startedAt: atHour(10)(), minedSoFar: '0', remainingSeconds: 8 * 3600 });
    await expect(at(7).mining.start()).rejects.toMatchObject({ cause: { code: 'MINING_ACTIVE' } });
  });

  it('agrees with Start at every step of a clock jumping back and forth, with moves in between', async () => {
    const coin = await configureMining('8', 8);
    const player = await createPlayer();
    // hours of the server's clock, in the order it shows them; 'move' taps Move to Wallet at that time
    const steps: Array<[number, 'move'?]> = [
      [0],
      [3],
      [9, 'move'],
      [2],
      [5],
      [14],
      [1, 'move'],
      [23, 'move'],
      [12],
      [40],
      [30],
      [31, 'move'],
      [50, 'move'],
    ];
    for (const [hour, move] of steps) {
      const at = playerCaller(player, { now: atHour(hour) });
      if (move) await at.mining.move().catch((error: { cause?: { code?: string } }) => expect(error.cause?.code).toBe('NOTHING_TO_MOVE'));
      const { active } = await at.mining.status();
      const started = await at.mining.start().then(
        () => true,
        (error: { cause?: { code?: string } }) => (expect(error.cause?.code).toBe('MINING_ACTIVE'), false),
      );
      // running on the screen exactly when Start says so
      expect(`${hour}h: ${active ? 'running' : 'idle'}`).toBe(`${hour}h: ${started ? 'idle' : 'running'}`);
      expect((await at.mining.status()).active).not.toBeNull();
    }
    // every moved session was credited once
    const moved = await MiningSessionModel.countDocuments({ user: player._id, movedAt: { $ne: null } });
    expect(fromMicros(await balanceOf(player._id, coin._id))).toBe(String(8 * moved));
    await expectLedgerMatchesBalances(player._id);
  });
});
