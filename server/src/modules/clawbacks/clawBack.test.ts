import { randomUUID } from 'node:crypto';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, postEntry, recoverPendingEntries } from '../ledger/ledger.service';
import { booksFigures } from '../ledger/books.service';
import { WalletLinkModel } from '../wallet/wallet.models';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { silentLogger, testEnv } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import { collectOwed } from './clawBack.service';
import { ClawBackModel } from './clawBack.model';
import { UserModel } from '../users/user.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

async function entry(userId: unknown, coinId: unknown, amount: string, reason: 'mission' | 'withdraw' | 'gift' | 'refund') {
  const signed = amount.startsWith('-') ? -toMicros(amount.slice(1)) : toMicros(amount);
  const { entryId } = await postEntry({
    userId: String(userId),
    coinId: String(coinId),
    amount: signed,
    reason,
    idempotencyKey: `test:${randomUUID()}`,
  });
  return entryId;
}

async function world() {
  const player = await createPlayer();
  const coin = await createCoin({ symbol: 'GIFT', minWithdraw: '1', withdrawEnabled: true });
  await WalletLinkModel.create({ address: `0:${randomUUID().replace(/-/g, '').padEnd(64, '0')}`, user: player._id, network: '-239' });
  const api = consoleApi(app, (await createOperator(['gifts:write', 'users:read'])).token);
  return { player, coin, api };
}

describe('taking back a credit', () => {
  afterEach(() => onFault(null));

  it('takes what the balance covers, says why in the ledger, keeps the rest owed, which blocks withdrawals until the sweep settles it', async () => {
    const { player, coin, api } = await world();
    const credit = await entry(player._id, coin._id, '100', 'mission');
    await entry(player._id, coin._id, '-70', 'withdraw');

    const taken = await api.post(`/users/${String(player._id)}/claw-backs`, { entryId: credit, reason: 'Approved by mistake' });
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({
      amount: '100',
      taken: '30',
      owed: '70',
      status: 'owed',
      symbol: 'GIFT',
      reason: 'Approved by mistake',
    });
    // never below zero
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    expect(await LedgerEntryModel.find({ user: player._id, reason: 'clawback' }, { amount: 1, note: 1, _id: 0 }).lean()).toEqual([
      { amount: -Number(toMicros('30')), note: 'Approved by mistake' },
    ]);
    // the player's page shows the debt
    expect((await api.get(`/users/${String(player._id)}`)).body.owed).toMatchObject([{ owed: '70', symbol: 'GIFT' }]);

    // the debt blocks a withdrawal, with what is owed and why
    await entry(player._id, coin._id, '5', 'gift');
    const caller = playerCaller(await UserModel.findById(player._id));
    const withdraw = () => caller.withdrawals.request({ coinId: String(coin._id), amount: '2', idempotencyKey: randomUUID() });
    await expect(withdraw()).rejects.toMatchObject({
      cause: { code: 'DEBT_OWED' },
      message: '70 GIFT was taken back (Approved by mistake) and is still owed: withdrawals open once it is settled',
    });

    // credits that arrive are taken by the sweep until it is settled
    expect(await collectOwed()).toBe(0);
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    await entry(player._id, coin._id, '80', 'mission');
    expect(await collectOwed()).toBe(1);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('15'));
    expect(await ClawBackModel.findOne({ entry: credit }).lean()).toMatchObject({ status: 'settled', taken: Number(toMicros('100')) });
    await expect(withdraw()).resolves.toMatchObject({ status: 'pending' });
    await expectLedgerMatchesBalances(player._id);
    // the Books attribute what was taken to the claw-backs' house account, and balance
    const [books] = (await booksFigures({ coin: String(coin._id) })).coins;
    expect(books!.house.find((row) => row.account === 'clawbacks')).toMatchObject({ balance: '100' });
    expect(books!.trialBalance).toBe('0');
  });

  it('takes a credit back once, however many operators ask at once, and a crash between a take and its record takes nothing twice', async () => {
    const { player, coin, api } = await world();
    const credit = await entry(player._id, coin._id, '40', 'gift');
    await entry(player._id, coin._id, '-10', 'withdraw');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api.post(`/users/${String(player._id)}/claw-backs`, { entryId: credit, reason: 'Farm reward' })),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    expect(await ClawBackModel.countDocuments({ entry: credit })).toBe(1);

    onFault((point, kind) => {
      if (point === 'ledger:after-apply' && kind === 'clawback-take') throw new Error('killed');
    });
    await entry(player._id, coin._id, '4', 'mission');
    await expect(collectOwed()).rejects.toThrow('killed');
    onFault(null);
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    expect(await ClawBackModel.findOne({ entry: credit }).lean()).toMatchObject({ taken: Number(toMicros('30')) });
    // the engine's sweep alone finishes the take: its line, and the claw-back's count raised once
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await ClawBackModel.findOne({ entry: credit }).lean()).toMatchObject({ taken: Number(toMicros('34')), status: 'owed' });
    // the next pass takes nothing more than owed
    await collectOwed();
    expect(await ClawBackModel.findOne({ entry: credit }).lean()).toMatchObject({ taken: Number(toMicros('34')), status: 'owed' });
    await entry(player._id, coin._id, '10', 'mission');
    await collectOwed();
    expect(await ClawBackModel.findOne({ entry: credit }).lean()).toMatchObject({ taken: Number(toMicros('40')), status: 'settled' });
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('4'));
    await expectLedgerMatchesBalances(player._id);
  });

  it('collected by two passes at once, and by the sweep finishing a take a crash stopped: each take once, counted once', async () => {
    const { player, coin, api } = await world();
    const credit = await entry(player._id, coin._id, '50', 'gift');
    await entry(player._id, coin._id, '-50', 'withdraw');
    expect((await api.post(`/users/${String(player._id)}/claw-backs`, { entryId: credit, reason: 'Farm' })).body).toMatchObject({
      taken: '0',
      owed: '50',
    });
    await entry(player._id, coin._id, '20', 'mission');
    // one pass records its take and dies before applying it
    onFault((point, kind) => {
      if (point === 'ledger:after-record' && kind === 'clawback-take') throw new Error('killed');
    });
    await expect(collectOwed()).rejects.toThrow('killed');
    onFault(null);
    await entry(player._id, coin._id, '45', 'mission');
    await Promise.all([collectOwed(), collectOwed(), recoverPendingEntries(0), collectOwed()]);
    // 50 owed, 65 credited since: 50 taken in all, the rest left to the player
    expect(await ClawBackModel.findOne({ entry: credit }).lean()).toMatchObject({ taken: Number(toMicros('50')), status: 'settled' });
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('15'));
    const takes = await LedgerEntryModel.find({ user: player._id, reason: 'clawback' }).lean();
    expect(takes.reduce((sum, take) => sum + BigInt(take.amount), 0n)).toBe(-toMicros('50'));
    expect(new Set(takes.map((take) => take.idempotencyKey)).size).toBe(takes.length);
    await expectLedgerMatchesBalances(player._id);
  });

  it("refuses what is not a credit to take back, another player's entry, and operators without the gifts permission", async () => {
    const { player, coin, api } = await world();
    const other = await createPlayer();
    const refund = await entry(player._id, coin._id, '3', 'refund');
    expect((await api.post(`/users/${String(player._id)}/claw-backs`, { entryId: refund, reason: 'x' })).body.errors).toEqual({
      entryId: 'Only a reward, a mining credit or a gift can be taken back',
    });
    const theirs = await entry(other._id, coin._id, '3', 'mission');
    expect((await api.post(`/users/${String(player._id)}/claw-backs`, { entryId: theirs, reason: 'x' })).status).toBe(404);
    expect((await api.post(`/users/${String(player._id)}/claw-backs`, { entryId: refund })).body.errors).toEqual({
      reason: 'This field is required',
    });
    const support = consoleApi(app, (await createOperator(['users:write'])).token);
    const mission = await entry(player._id, coin._id, '3', 'mission');
    expect((await support.post(`/users/${String(player._id)}/claw-backs`, { entryId: mission, reason: 'x' })).status).toBe(403);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('6'));
  });
});
