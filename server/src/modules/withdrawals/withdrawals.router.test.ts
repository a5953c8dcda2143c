import { randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import { Address } from '@ton/core';
import { fromMicros, toMicros } from '@gift/shared';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf } from '../ledger/ledger.service';
import type { UserDocument } from '../users/user.model';
import { WalletLinkModel } from '../wallet/wallet.models';
import { WithdrawalModel } from './withdrawal.model';

const key = () => `tap-${randomBytes(6).toString('hex')}`;

/** A wallet the player already proved (the proof itself is covered by the wallet tests). */
async function linkWallet(user: UserDocument) {
  const raw = `0:${randomBytes(32).toString('hex')}`;
  await WalletLinkModel.create({ address: raw, user: user._id, network: '-239' });
  return Address.parse(raw).toString({ bounceable: false });
}

async function ledgerTotal(userId: Types.ObjectId, coinId: Types.ObjectId): Promise<bigint> {
  const entries = await LedgerEntryModel.find({ user: userId, coin: coinId, state: 'posted' }).lean();
  return entries.reduce((sum, e) => sum + BigInt(e.amount), 0n);
}

async function playerWithBalance(balance: string, coinFields: Record<string, unknown> = {}) {
  const [user, coin] = await Promise.all([createPlayer(), createCoin({ symbol: 'GIFT', minWithdraw: '5', ...coinFields })]);
  if (balance !== '0') await fund(user._id, coin._id, balance);
  return { user, coin, api: playerCaller(user) };
}

describe('withdrawals, as a player', () => {
  it('lists the coins open for withdrawal with the balance, the minimum and the decimals an amount may have', async () => {
    const { user, coin, api } = await playerWithBalance('12.5', { withdrawEnabled: true, decimals: 9 });
    const closed = await createCoin({ symbol: 'STAR', withdrawEnabled: false });
    await fund(user._id, closed._id, '7');
    const coins = await api.withdrawals.coins();
    expect(coins.find((c) => c.coinId === coin.id)).toEqual({
      coinId: coin.id,
      symbol: 'GIFT',
      name: expect.any(String),
      icon: expect.any(String),
      balance: '12.5',
      minimum: '5',
      decimals: 6,
    });
    expect(coins.some((c) => c.coinId === closed.id)).toBe(false);
  });

  it('asks for a connected TON wallet first', async () => {
    const { coin, api } = await playerWithBalance('100');
    await expect(api.withdrawals.request({ coinId: coin.id, amount: '10', idempotencyKey: key() })).rejects.toMatchObject({
      message: 'Please connect your TON wallet to continue.',
      cause: expect.objectContaining({ code: 'WALLET_REQUIRED' }),
    });
  });

  it('names the minimum and the coin when the amount or the balance is below it', async () => {
    const { user, coin, api } = await playerWithBalance('100');
    await linkWallet(user);
    const minimum = {
      message: 'You must have at least 5 GIFT to make a withdrawal.',
      cause: expect.objectContaining({ code: 'WITHDRAW_MINIMUM', params: { amount: '5', symbol: 'GIFT' } }),
    };
    await expect(api.withdrawals.request({ coinId: coin.id, amount: '4.999999', idempotencyKey: key() })).rejects.toMatchObject(minimum);

    const poor = await playerWithBalance('3');
    await linkWallet(poor.user);
    await expect(poor.api.withdrawals.request({ coinId: poor.coin.id, amount: '5', idempotencyKey: key() })).rejects.toMatchObject({
      message: 'You must have at least 5 GIFT to make a withdrawal.',
    });
    expect(fromMicros(await balanceOf(poor.user._id, poor.coin._id))).toBe('3');
  });

  it('refuses more than the balance, and takes nothing', async () => {
    const { user, coin, api } = await playerWithBalance('20');
    await linkWallet(user);
    await expect(api.withdrawals.request({ coinId: coin.id, amount: '20.000001', idempotencyKey: key() })).rejects.toMatchObject({
      cause: expect.objectContaining({ code: 'INSUFFICIENT_BALANCE' }),
    });
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('20');
    expect(await WithdrawalModel.countDocuments({ user: user._id })).toBe(0);
  });

  it('refuses a coin that cannot be withdrawn', async () => {
    const { user, coin, api } = await playerWithBalance('20', { withdrawEnabled: false });
    await linkWallet(user);
    await expect(api.withdrawals.request({ coinId: coin.id, amount: '10', idempotencyKey: key() })).rejects.toMatchObject({
      cause: expect.objectContaining({ code: 'WITHDRAW_DISABLED' }),
    });
  });

  it('takes the amount at once and waits as pending, to the linked wallet', async () => {
    const { user, coin, api } = await playerWithBalance('20.5');
    const address = await linkWallet(user);
    const withdrawal = await api.withdrawals.request({ coinId: coin.id, amount: '7.25', idempotencyKey: key() });
    expect(withdrawal).toMatchObject({ amount: '7.25', status: 'pending', address, coin: { id: coin.id, symbol: 'GIFT' }, txHash: '' });
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('13.25');
    const entry = await LedgerEntryModel.findOne({ idempotencyKey: `withdraw:${withdrawal.id}` }).lean();
    expect(entry).toMatchObject({
      reason: 'withdraw',
      amount: -Number(toMicros('7.25')),
      state: 'posted',
      refType: 'Withdrawal',
      refId: withdrawal.id,
    });
  });

  it('gives the same withdrawal for a second tap with the same key, taken once', async () => {
    const { user, coin, api } = await playerWithBalance('20');
    await linkWallet(user);
    const tap = key();
    const first = await api.withdrawals.request({ coinId: coin.id, amount: '10', idempotencyKey: tap });
    const second = await api.withdrawals.request({ coinId: coin.id, amount: '10', idempotencyKey: tap });
    expect(second.id).toBe(first.id);
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('10');
    // the key belongs to this player: another player using the same string makes their own withdrawal
    const other = await playerWithBalance('20');
    await linkWallet(other.user);
    const theirs = await other.api.withdrawals.request({ coinId: other.coin.id, amount: '10', idempotencyKey: tap });
    expect(theirs.id).not.toBe(first.id);
  });

  it('lists the player’s own withdrawals, newest first, page by page', async () => {
    const { user, coin, api } = await playerWithBalance('100');
    await linkWallet(user);
    for (const amount of ['5', '6', '7']) await api.withdrawals.request({ coinId: coin.id, amount, idempotencyKey: key() });
    const stranger = await playerWithBalance('100');
    await linkWallet(stranger.user);
    await stranger.api.withdrawals.request({ coinId: stranger.coin.id, amount: '50', idempotencyKey: key() });

    const first = await api.withdrawals.history({ page: 1, pageSize: 2 });
    expect(first.total).toBe(3);
    expect(first.items.map((w) => w.amount)).toEqual(['7', '6']);
    expect(first.items[0]).toMatchObject({ status: 'pending', coin: { symbol: 'GIFT' } });
    const second = await api.withdrawals.history({ page: 2, pageSize: 2 });
    expect(second.items.map((w) => w.amount)).toEqual(['5']);
  });

  it('lets 100 simultaneous withdrawals take only what the balance holds', async () => {
    const { user, coin } = await playerWithBalance('50');
    await linkWallet(user);
    const api = playerCaller(user);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () => api.withdrawals.request({ coinId: coin.id, amount: '5', idempotencyKey: key() })),
    );
    const balance = await balanceOf(user._id, coin._id);
    const pending = await WithdrawalModel.find({ user: user._id, status: 'pending' }).lean();
    expect(balance).toBeGreaterThanOrEqual(0n);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(pending.length);
    expect(toMicros('50') - balance).toBe(BigInt(pending.length) * toMicros('5'));
    expect(await ledgerTotal(user._id, coin._id)).toBe(balance);
    // nobody was refused while money was left for one more
    expect(balance).toBeLessThan(toMicros('5'));
  }, 60_000);

  it('makes one withdrawal and one debit from 100 simultaneous taps with the same key', async () => {
    const { user, coin } = await playerWithBalance('50');
    await linkWallet(user);
    const api = playerCaller(user);
    const tap = key();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () => api.withdrawals.request({ coinId: coin.id, amount: '20', idempotencyKey: tap })),
    );
    const ids = new Set(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.id] : [])));
    // every tap gets the one withdrawal, none an error
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(100);
    expect(ids.size).toBe(1);
    expect(await WithdrawalModel.countDocuments({ user: user._id })).toBe(1);
    expect(await LedgerEntryModel.countDocuments({ user: user._id, reason: 'withdraw' })).toBe(1);
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('30');
    expect(await ledgerTotal(user._id, coin._id)).toBe(toMicros('30'));
  }, 60_000);
});
