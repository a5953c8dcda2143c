import { randomBytes } from 'node:crypto';
import { Address, toNano } from '@ton/core';
import { fromMicros, microsToStored, toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { createCoin, createPlayer, fund, playerCaller } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import { consoleApi, createOperator } from '../../../test/operators';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf } from '../ledger/ledger.service';
import { WalletLinkModel } from '../wallet/wallet.models';
import { WithdrawalModel } from './withdrawal.model';
import { AppConfigModel } from '../config/appConfig.model';
import { tonPayment, useTonTestChain, type TestWallet } from '../../../test/tonChain';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const TX_HASH = 'a3f1c0de'.repeat(8);

// manual mode: a hash must be a real payment from a payout wallet, on the stand-in chain
const ton = useTonTestChain({ automated: false });
let payer: TestWallet;
beforeAll(async () => {
  payer = await ton.wallet();
  await AppConfigModel.updateOne({ key: 'app' }, { $set: { payoutWallets: [payer.address.toString()] } }, { upsert: true });
}, 60_000);

/** Pays a withdrawal from the payout wallet, as an operator does by hand; returns the transaction's hash. */
const payByHand = (withdrawal: { address: string; amount: string }) =>
  payer.send([tonPayment(withdrawal.address, toNano(withdrawal.amount))]);

/** A player with a linked wallet and a balance, who asked to withdraw `amount`. */
async function pendingWithdrawal(amount = '10', balance = '100') {
  const [user, coin] = await Promise.all([
    createPlayer({ name: 'Sara Ahmadi', username: `sara${randomBytes(3).toString('hex')}` }),
    createCoin(),
  ]);
  await fund(user._id, coin._id, balance);
  const raw = `0:${randomBytes(32).toString('hex')}`;
  await WalletLinkModel.create({ address: raw, user: user._id, network: '-239' });
  const withdrawal = await playerCaller(user).withdrawals.request({
    coinId: coin.id,
    amount,
    idempotencyKey: `tap-${randomBytes(6).toString('hex')}`,
  });
  return { user, coin, withdrawal, address: Address.parse(raw).toString({ bounceable: false }) };
}

describe('withdrawals in the console', () => {
  it('lists pending ones, and finished ones with a status list, with who and which coin on show', async () => {
    const { token } = await createOperator();
    const api = consoleApi(app, token);
    const { user, coin, withdrawal, address } = await pendingWithdrawal('12.5');
    const mine = { user: user.id };

    const pending = await api.get('/withdraws', { filter: { ...mine, status: 'pending' } }).expect(200);
    expect(pending.headers['content-range']).toBe('withdraws 0-0/1');
    expect(pending.body[0]).toMatchObject({ id: withdrawal.id, user: user.id, coin: coin.id, amount: '12.5', address, status: 'pending' });

    const done = await api.get('/withdraws', { filter: { ...mine, status: ['done', 'rejected'] } }).expect(200);
    expect(done.body).toEqual([]);

    const shown = await api.get(`/withdraws/${withdrawal.id}`).expect(200);
    expect(shown.body).toMatchObject({ userName: 'Sara Ahmadi', username: user.username, coinSymbol: coin.symbol, amount: '12.5' });
  });

  it('finds a withdrawal by the start of its address or transaction hash, and sorts by amount', async () => {
    const { token, id: operatorId } = await createOperator();
    const api = consoleApi(app, token);
    const first = await pendingWithdrawal('30');
    const second = await pendingWithdrawal('20');
    const paidWith = await payByHand(second.withdrawal);
    await api.put(`/withdraws/${second.withdrawal.id}`, { status: 'done', txHash: paidWith }).expect(200);

    const byAddress = await api.get('/withdraws', { filter: { q: first.address.slice(0, 30) } }).expect(200);
    expect(byAddress.body.map((w: { id: string }) => w.id)).toEqual([first.withdrawal.id]);
    const byHash = await api.get('/withdraws', { filter: { q: paidWith.slice(0, 12) } }).expect(200);
    expect(byHash.body).toEqual([expect.objectContaining({ id: second.withdrawal.id, processedBy: operatorId })]);

    const ids = [first.withdrawal.id, second.withdrawal.id];
    const sorted = await api.get('/withdraws', { filter: { id: ids }, sort: ['amount', 'ASC'] }).expect(200);
    expect(sorted.body.map((w: { amount: string }) => w.amount)).toEqual(['20', '30']);
  });

  it('marks one done with its transaction hash: the amount stays taken', async () => {
    const { token, id: operatorId } = await createOperator();
    const { user, coin, withdrawal } = await pendingWithdrawal('10', '100');
    const paidWith = await payByHand(withdrawal);
    const res = await consoleApi(app, token).put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: paidWith }).expect(200);
    expect(res.body).toMatchObject({ status: 'done', txHash: paidWith, processedBy: operatorId, coinSymbol: coin.symbol });
    expect(res.body.processedAt).toEqual(expect.any(String));
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('90');
    expect((await playerCaller(user).withdrawals.history({ page: 1, pageSize: 10 })).items[0]).toMatchObject({
      status: 'done',
      txHash: paidWith,
    });
  });

  it('rejects one with a reason and gives the amount back, then refuses to process it again', async () => {
    const { token } = await createOperator();
    const api = consoleApi(app, token);
    const { user, coin, withdrawal } = await pendingWithdrawal('10', '100');
    const res = await api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: 'Wallet address is frozen' }).expect(200);
    expect(res.body).toMatchObject({ status: 'rejected', rejectReason: 'Wallet address is frozen' });
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('100');
    expect(await LedgerEntryModel.findOne({ idempotencyKey: `refund:${withdrawal.id}` }).lean()).toMatchObject({
      reason: 'refund',
      amount: Number(toMicros('10')),
    });

    const again = await api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: TX_HASH }).expect(409);
    expect(again.body).toMatchObject({ code: 'WITHDRAWAL_PROCESSED', message: 'This withdrawal has already been processed' });
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: 'Twice' }).expect(409);
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('100');
    await expectLedgerMatchesBalances(user._id);
  });

  it('refunds once when 50 operators reject the same withdrawal at once', async () => {
    const { token } = await createOperator();
    const api = consoleApi(app, token);
    const { user, coin, withdrawal } = await pendingWithdrawal('10', '100');
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: 'Duplicate request' })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(49);
    expect(await LedgerEntryModel.countDocuments({ user: user._id, reason: 'refund' })).toBe(1);
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('100');
    await expectLedgerMatchesBalances(user._id);
  }, 60_000);

  it('never pays out an amount that was not taken, and rejects it without giving anything', async () => {
    const { token } = await createOperator();
    const api = consoleApi(app, token);
    // a withdrawal whose debit a crash never made, for more than the player now holds
    const [user, coin] = await Promise.all([createPlayer(), createCoin()]);
    await fund(user._id, coin._id, '5');
    const orphan = await WithdrawalModel.create({
      user: user._id,
      coin: coin._id,
      amount: microsToStored(toMicros('8')),
      address: 'UQ-orphan',
      idempotencyKey: `${user.id}:orphan`,
    });
    await api.put(`/withdraws/${orphan.id}`, { status: 'done', txHash: TX_HASH }).expect(409);
    expect((await WithdrawalModel.findById(orphan._id))!.status).toBe('pending');
    await api.put(`/withdraws/${orphan.id}`, { status: 'rejected', rejectReason: 'Not covered' }).expect(200);
    expect(fromMicros(await balanceOf(user._id, coin._id))).toBe('5');
    await expectLedgerMatchesBalances(user._id);
  });

  it('checks the decision: a hash for done, a reason for a rejection', async () => {
    const { token } = await createOperator();
    const { withdrawal } = await pendingWithdrawal();
    const api = consoleApi(app, token);
    const noHash = await api.put(`/withdraws/${withdrawal.id}`, { status: 'done' }).expect(400);
    expect(noHash.body.errors).toHaveProperty('txHash');
    const noReason = await api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: '' }).expect(400);
    expect(noReason.body.errors).toHaveProperty('rejectReason');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'pending' }).expect(400);
    expect((await WithdrawalModel.findById(withdrawal.id))!.status).toBe('pending');
  });

  it('has no create or delete, and a read-only operator cannot decide', async () => {
    const { token } = await createOperator();
    const { withdrawal } = await pendingWithdrawal();
    await consoleApi(app, token).post('/withdraws', { amount: '1' }).expect(403);
    await consoleApi(app, token).delete(`/withdraws/${withdrawal.id}`).expect(405);
    expect(await WithdrawalModel.exists({ _id: withdrawal.id })).toBeTruthy();

    const reader = consoleApi(app, (await createOperator(['withdraws:read'])).token);
    await reader.get('/withdraws').expect(200);
    await reader.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: TX_HASH }).expect(403);
    const stranger = consoleApi(app, (await createOperator(['users:read'])).token);
    await stranger.get('/withdraws').expect(403);
  });
});
