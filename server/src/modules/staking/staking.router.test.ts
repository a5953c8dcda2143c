import { fromMicros } from '@gift/shared';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf } from '../ledger/ledger.service';
import { StakeModel, StakingCoinModel } from './staking.models';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';

const DAY_MS = 86_400_000;
const START = new Date('2025-01-01T12:00:00Z');
const atDay = (days: number) => () => new Date(START.getTime() + days * DAY_MS);

async function createOffer(fields: Record<string, unknown> = {}) {
  const coin = fields.coin ? null : await createCoin({ symbol: 'STK' });
  const offer = new StakingCoinModel();
  // set() takes amounts as decimal strings, as the console sends them
  offer.set({ coin: coin?._id, minAmount: '10', maxAmount: '1000', profits: { week: '1.5', month: '5', year: '40' }, ...fields });
  return offer.save();
}

async function fundedPlayer(coinId: unknown, amount: string) {
  const player = await createPlayer();
  await fund(player._id, String(coinId), amount);
  return player;
}

describe('staking.offers', () => {
  it('lists enabled offers of enabled coins with the durations offered and the player balance', async () => {
    await StakingCoinModel.updateMany({}, { $set: { enabled: false } });
    const offer = await createOffer({ order: 1 });
    await createOffer({ enabled: false });
    await createOffer({ coin: (await createCoin({ enabled: false }))._id });
    const player = await fundedPlayer(offer.coin, '25.5');

    const offers = await playerCaller(player).staking.offers();

    expect(offers).toEqual([
      {
        id: String(offer._id),
        coin: expect.objectContaining({ id: String(offer.coin), symbol: 'STK' }),
        minAmount: '10',
        maxAmount: '1000',
        durations: [
          { duration: 'week', days: 7, percent: '1.5' },
          { duration: 'month', days: 30, percent: '5' },
          { duration: 'year', days: 365, percent: '40' },
        ],
        balance: '25.5',
      },
    ]);
  });
});

describe('staking.quote', () => {
  it('shows the exact profit, total and unlock date before confirming', async () => {
    const offer = await createOffer();
    const quote = await playerCaller(await createPlayer(), { now: atDay(0) }).staking.quote({
      stakingCoinId: String(offer._id),
      amount: '333.333333',
      duration: 'week',
    });
    expect(quote).toEqual({
      amount: '333.333333',
      duration: 'week',
      percent: '1.5',
      profit: '4.999999',
      total: '338.333332',
      unlocksAt: atDay(7)(),
    });
  });

  it('refuses amounts outside the offer, durations it does not offer, and disabled offers', async () => {
    const offer = await createOffer();
    const caller = playerCaller(await createPlayer());
    const quote = (amount: string, duration = 'month', id = String(offer._id)) =>
      caller.staking.quote({ stakingCoinId: id, amount, duration });

    await expect(quote('9.999999')).rejects.toMatchObject({
      message: 'Amount is below the minimum',
      cause: { code: 'AMOUNT_BELOW_MINIMUM' },
    });
    await expect(quote('1000.000001')).rejects.toMatchObject({
      message: 'Amount is above the maximum',
      cause: { code: 'AMOUNT_ABOVE_MAXIMUM' },
    });
    await expect(quote('50', 'sixMonths')).rejects.toMatchObject({ cause: { code: 'BAD_INPUT' } });
    await expect(quote('50', 'fortnight')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const disabled = await createOffer({ enabled: false });
    await expect(quote('50', 'month', String(disabled._id))).rejects.toMatchObject({ cause: { code: 'STAKING_DISABLED' } });
  });
});

describe('staking.stake and claim', () => {
  it('takes the amount, locks it, and pays principal plus profit once after the unlock', async () => {
    const offer = await createOffer();
    const player = await fundedPlayer(offer.coin, '150');
    const on = (day: number) => playerCaller(player, { now: atDay(day) });

    const position = await on(0).staking.stake({
      stakingCoinId: String(offer._id),
      amount: '100',
      duration: 'month',
      idempotencyKey: 'tap-0001',
    });
    expect(position).toMatchObject({
      amount: '100',
      profit: '5',
      total: '105',
      unlocksAt: atDay(30)(),
      claimable: false,
      coin: { symbol: 'STK' },
    });
    expect(fromMicros(await balanceOf(player._id, offer.coin))).toBe('50');

    expect(await on(29.5).staking.positions()).toEqual([
      expect.objectContaining({ id: position.id, secondsLeft: 12 * 3600, claimable: false, duration: 'month' }),
    ]);
    await expect(on(29.5).staking.claim({ stakeId: position.id })).rejects.toMatchObject({
      message: 'This stake is still locked',
      cause: { code: 'STAKE_LOCKED' },
    });
    expect(fromMicros(await balanceOf(player._id, offer.coin))).toBe('50');

    expect((await on(30).staking.positions())[0]).toMatchObject({ secondsLeft: 0, claimable: true });
    expect(await on(30).staking.claim({ stakeId: position.id })).toEqual({ id: position.id, amount: '100', profit: '5', total: '105' });
    expect(fromMicros(await balanceOf(player._id, offer.coin))).toBe('155');
    await expect(on(31).staking.claim({ stakeId: position.id })).rejects.toMatchObject({ cause: { code: 'STAKE_CLAIMED' } });
    expect((await on(31).staking.positions())[0]).toMatchObject({ claimable: false, claimedAt: atDay(30)() });
    await expectLedgerMatchesBalances(player._id);
  });

  it('refuses a stake the balance does not cover, and records nothing', async () => {
    const offer = await createOffer();
    const player = await fundedPlayer(offer.coin, '99.999999');
    await expect(
      playerCaller(player).staking.stake({ stakingCoinId: String(offer._id), amount: '100', duration: 'week', idempotencyKey: 'tap-poor' }),
    ).rejects.toMatchObject({ message: 'Not enough balance', cause: { code: 'INSUFFICIENT_BALANCE' } });
    expect(await StakeModel.countDocuments({ user: player._id })).toBe(0);
    expect(fromMicros(await balanceOf(player._id, offer.coin))).toBe('99.999999');
  });

  it('stakes once for a double tap, however many arrive at once; keys belong to one player', async () => {
    const offer = await createOffer();
    const [player, other] = await Promise.all([fundedPlayer(offer.coin, '500'), fundedPlayer(offer.coin, '500')]);
    const input = { stakingCoinId: String(offer._id), amount: '20', duration: 'week', idempotencyKey: 'double-tap-1' };

    const results = await Promise.all(Array.from({ length: 100 }, () => playerCaller(player).staking.stake(input)));
    await playerCaller(other).staking.stake(input);

    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await StakeModel.countDocuments({ user: player._id })).toBe(1);
    expect(fromMicros(await balanceOf(player._id, offer.coin))).toBe('480');
    expect(fromMicros(await balanceOf(other._id, offer.coin))).toBe('480');
    const entry = (await LedgerEntryModel.findOne({ user: player._id, reason: 'stake' }).lean())!;
    expect(entry.refId).toBe(results[0]!.id);
    await expectLedgerMatchesBalances(player._id);
  }, 60_000);

  it('pays one of 100 simultaneous claims of a stake', async () => {
    const offer = await createOffer();
    const player = await fundedPlayer(offer.coin, '10');
    const { id } = await playerCaller(player, { now: atDay(0) }).staking.stake({
      stakingCoinId: String(offer._id),
      amount: '10',
      duration: 'week',
      idempotencyKey: 'claim-race',
    });

    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () => playerCaller(player, { now: atDay(8) }).staking.claim({ stakeId: id })),
    );

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ cause: { code: 'STAKE_CLAIMED' } });
    expect(fromMicros(await balanceOf(player._id, offer.coin))).toBe('10.15');
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'unstake' })).toBe(1);
    await expectLedgerMatchesBalances(player._id);
  }, 60_000);

  it("lets nobody claim another player's stake", async () => {
    const offer = await createOffer();
    const owner = await fundedPlayer(offer.coin, '10');
    const { id } = await playerCaller(owner, { now: atDay(0) }).staking.stake({
      stakingCoinId: String(offer._id),
      amount: '10',
      duration: 'week',
      idempotencyKey: 'mine-only',
    });
    const thief = await createPlayer();
    await expect(playerCaller(thief, { now: atDay(8) }).staking.claim({ stakeId: id })).rejects.toMatchObject({
      cause: { code: 'NOT_FOUND' },
    });
    expect(await balanceOf(thief._id, offer.coin)).toBe(0n);
    expect((await StakeModel.findById(id).lean())!.claimedAt).toBeNull();
  });
});
