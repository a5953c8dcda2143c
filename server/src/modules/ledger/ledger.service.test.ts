import type { Types } from 'mongoose';
import { fromMicros, toMicros } from '@gift/shared';
import { BalanceModel, LedgerEntryModel } from './ledger.models';
import { balanceOf, figuresByCoin, postEntry } from './ledger.service';
import { createCoin, createPlayer } from '../../../test/factories';

async function ledgerTotal(userId: Types.ObjectId, coinId: Types.ObjectId): Promise<bigint> {
  const entries = await LedgerEntryModel.find({ user: userId, coin: coinId, state: 'posted' }).lean();
  return entries.reduce((sum, e) => sum + BigInt(e.amount), 0n);
}

describe('ledger', () => {
  it('credits and debits exactly, and never below zero', async () => {
    const [user, coin] = await Promise.all([createPlayer(), createCoin()]);
    await postEntry({ userId: user.id, coinId: coin.id, amount: toMicros('0.1'), reason: 'gift', idempotencyKey: 'l1:a' });
    await postEntry({ userId: user.id, coinId: coin.id, amount: toMicros('0.2'), reason: 'gift', idempotencyKey: 'l1:b' });
    expect(fromMicros(await balanceOf(user.id, coin.id))).toBe('0.3');
    await expect(
      postEntry({ userId: user.id, coinId: coin.id, amount: -toMicros('0.300001'), reason: 'withdraw', idempotencyKey: 'l1:c' }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await LedgerEntryModel.countDocuments({ idempotencyKey: 'l1:c' })).toBe(0);
    await postEntry({ userId: user.id, coinId: coin.id, amount: -toMicros('0.3'), reason: 'withdraw', idempotencyKey: 'l1:d' });
    expect(await balanceOf(user.id, coin.id)).toBe(0n);
  });

  it('applies one idempotency key once, however many times it is posted at once', async () => {
    const [user, coin] = await Promise.all([createPlayer(), createCoin()]);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        postEntry({ userId: user.id, coinId: coin.id, amount: toMicros('5'), reason: 'mission', idempotencyKey: 'l2:same' }),
      ),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(fromMicros(await balanceOf(user.id, coin.id))).toBe('5');
    expect(await LedgerEntryModel.countDocuments({ idempotencyKey: 'l2:same' })).toBe(1);
  });

  it('keeps one balance when a credit already applied is posted again at once', async () => {
    const [user, coin] = await Promise.all([createPlayer(), createCoin()]);
    await postEntry({ userId: user.id, coinId: coin.id, amount: toMicros('1'), reason: 'gift', idempotencyKey: 'l6:fund' });
    await Promise.all(
      Array.from({ length: 50 }, () =>
        postEntry({ userId: user.id, coinId: coin.id, amount: toMicros('2'), reason: 'refund', idempotencyKey: 'l6:same' }),
      ),
    );
    expect(await BalanceModel.countDocuments({ user: user._id, coin: coin._id })).toBe(1);
    expect(fromMicros(await balanceOf(user.id, coin.id))).toBe('3');
  });

  it('lets 100 simultaneous debits take only what the balance covers', async () => {
    const [user, coin] = await Promise.all([createPlayer(), createCoin()]);
    await postEntry({ userId: user.id, coinId: coin.id, amount: toMicros('10'), reason: 'gift', idempotencyKey: 'l3:fund' });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        postEntry({ userId: user.id, coinId: coin.id, amount: -toMicros('1'), reason: 'withdraw', idempotencyKey: `l3:${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    expect(await balanceOf(user.id, coin.id)).toBe(0n);
    expect(await ledgerTotal(user._id, coin._id)).toBe(0n);
  });

  it('derives a player figures from the ledger', async () => {
    const [user, coin] = await Promise.all([createPlayer(), createCoin()]);
    const post = (amount: bigint, reason: Parameters<typeof postEntry>[0]['reason'], key: string) =>
      postEntry({ userId: user.id, coinId: coin.id, amount, reason, idempotencyKey: `l5:${key}` });
    await post(toMicros('10'), 'mission', 'm');
    await post(toMicros('2'), 'referral', 'r');
    await post(toMicros('3'), 'mining', 'n');
    await post(toMicros('1'), 'gift', 'g');
    await post(-toMicros('5'), 'stake', 's');
    await post(toMicros('5.5'), 'unstake', 'u');
    await post(-toMicros('4'), 'withdraw', 'w');
    const [figures] = await figuresByCoin(user.id);
    expect(figures).toEqual({
      coin: coin.id,
      rewards: toMicros('12'),
      earned: toMicros('3.5'),
      withdrawn: toMicros('4'),
      gifts: toMicros('1'),
    });
    const balance = await BalanceModel.findOne({ user: user._id, coin: coin._id }).lean();
    expect(BigInt(balance!.amount)).toBe(await ledgerTotal(user._id, coin._id));
  });
});
