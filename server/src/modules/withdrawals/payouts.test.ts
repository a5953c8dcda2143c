import { randomBytes } from 'node:crypto';
import { Address, internal, toNano } from '@ton/core';
import { JettonWallet } from '@ton-community/assets-sdk/dist/jetton/JettonWallet';
import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { createCoin, fund, playerCaller, randomAddress, withdrawalOf } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import { consoleApi, createOperator } from '../../../test/operators';
import { jettonPayment, tonPayment, useTonTestChain, type TestWallet } from '../../../test/tonChain';
import { onFault } from '../../lib/faults';
import { AuditEntryModel } from '../audit/audit.model';
import { AppConfigModel } from '../config/appConfig.model';
import { runIfFree } from '../jobs/jobLease.service';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { OperationModel } from '../ledger/operation.model';
import { collectOwed } from '../clawbacks/clawBack.service';
import { jettonTransferBody, jettonWalletOf } from './chainPayments';
import { PayoutBatchModel, UsedTxHashModel } from './payoutBatch.model';
import { runPayoutRound } from './payouts.service';
import { payoutsJob } from './withdrawals.jobs';
import { WithdrawalModel } from './withdrawal.model';

jest.setTimeout(240_000);

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const ton = useTonTestChain();
/** One pass of the payouts job as its lease holder runs it. */
const jobContext = { now: new Date(), graceMs: 0, holding: () => true, lastPass: async () => null };
afterEach(() => onFault(null));
/** A fault point as the crash tests arm it: the engine's name the kind, and after a step the step (`ledger:after-step:payout-batch:sign`). */
const pointName = (point: string, kind?: string, step?: string) => [point, kind, step].filter(Boolean).join(':');

const tonCoin = () => createCoin({ symbol: `T${randomBytes(2).toString('hex')}`, network: 'ton', decimals: 9, minWithdraw: '0.1' });
const giftCoin = () => createCoin({ network: 'jetton', jettonMaster: ton.standIn.jettons.GIFT!, decimals: 9, minWithdraw: '0.1' });

/** Runs the sender until it has nothing left to do (or `max` rounds). */
async function payoutRounds(max = 10) {
  const total = { batched: 0, confirmed: 0, bounced: 0, requeued: 0 };
  for (let round = 0; round < max; round++) {
    const report = await runPayoutRound();
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += report[key];
    const open = await PayoutBatchModel.exists({ state: { $in: ['signed', 'sent', 'landed'] } });
    const waiting = await WithdrawalModel.exists({ status: { $in: ['approved', 'sending'] } });
    if (!open && !waiting) break;
  }
  return total;
}

const received = async (address: Address) => (await ton.chain.account(address)).balance;
const jettonsOf = async (owner: Address) =>
  ton.chain.jettonBalance(await jettonWalletOf(ton.chain, Address.parse(ton.standIn.jettons.GIFT!), owner));

/** An operator's console, and a wallet of the operator's that the product accepts manual payouts from. */
async function operatorWithPayoutWallet() {
  const api = consoleApi(app, (await createOperator()).token);
  const payer = await ton.wallet();
  await AppConfigModel.updateOne({ key: 'app' }, { $set: { payoutWallets: [payer.address.toString()] } }, { upsert: true });
  return { api, payer };
}

describe('manual mode: a typed hash must be the transaction that paid this withdrawal', () => {
  let api: ReturnType<typeof consoleApi>;
  let payer: TestWallet;
  beforeAll(async () => ({ api, payer } = await operatorWithPayoutWallet()));

  it('accepts the hash of a TON payment of this amount to this address from a payout wallet, once', async () => {
    const { withdrawal, address, user } = await withdrawalOf(await tonCoin(), '2.5');
    const hash = await payer.send([tonPayment(address, toNano('2.5'))]);
    const res = await api
      .put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: Buffer.from(hash, 'hex').toString('base64') })
      .expect(200);
    expect(res.body).toMatchObject({ status: 'done', txHash: hash, explorerUrl: `https://tonviewer.com/transaction/${hash}` });
    expect((await playerCaller(user).withdrawals.history({ page: 1, pageSize: 5 })).items[0]).toMatchObject({
      status: 'done',
      txHash: hash,
    });

    // the same hash cannot pay a second withdrawal
    const other = await withdrawalOf(await tonCoin(), '2.5');
    const reused = await api.put(`/withdraws/${other.withdrawal.id}`, { status: 'done', txHash: hash }).expect(400);
    expect(reused.body.errors.txHash).toMatch(/already paid another withdrawal/);
  });

  it('says exactly what did not match, and changes nothing', async () => {
    const coin = await tonCoin();
    const { withdrawal, address } = await withdrawalOf(coin, '3');
    const put = (txHash: string) => api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash }).expect(400);

    expect((await put('hello world')).body.errors.txHash).toMatch(/64 hex digits/);
    expect((await put('ab'.repeat(32))).body.errors.txHash).toMatch(/No transaction with this hash was sent from the payout wallets/);
    expect((await put(await payer.send([tonPayment(address, toNano('2'))]))).body.errors.txHash).toBe(
      `This transaction sends 2 ${coin.symbol} to this address, not 3 ${coin.symbol}`,
    );
    const elsewhere = randomAddress();
    expect((await put(await payer.send([tonPayment(elsewhere, toNano('3'))]))).body.errors.txHash).toBe(
      `This transaction sends nothing to ${withdrawal.address}`,
    );
    // a payment from a wallet that is not a payout wallet
    const stranger = await ton.wallet();
    expect((await put(await stranger.send([tonPayment(address, toNano('3'))]))).body.errors.txHash).toMatch(/came from another wallet/);
    // a jetton transfer for a TON withdrawal
    const hot = Address.parse(ton.standIn.hotWallet);
    expect((await put(await payer.send([jettonPayment(hot, address, 3n, payer.address)]))).body.errors.txHash).toMatch(
      /moves a jetton, not/,
    );

    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'pending', txHash: '' });
  });

  it('checks a jetton payment: this coin, this address, this amount', async () => {
    const coin = await giftCoin();
    const { withdrawal, address } = await withdrawalOf(coin, '5');
    // the payer holds GIFT: the hot wallet gives it some by an ordinary transfer
    const put = (txHash: string) => api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash });
    const hotJettons = await jettonWalletOf(ton.chain, Address.parse(ton.standIn.jettons.GIFT!), Address.parse(ton.standIn.hotWallet));
    await ton.standIn.blockchain
      .openContract(JettonWallet.createFromAddress(hotJettons))
      .send(ton.standIn.blockchain.sender(Address.parse(ton.standIn.hotWallet)), payer.address, toNano('100'), { value: toNano('0.2') });
    const payerJettons = await jettonWalletOf(ton.chain, Address.parse(ton.standIn.jettons.GIFT!), payer.address);

    const wrongAmount = await put(await payer.send([jettonPayment(payerJettons, address, toNano('4'), payer.address)])).expect(400);
    expect(wrongAmount.body.errors.txHash).toBe(`This transaction sends 4 ${coin.symbol} to this address, not 5 ${coin.symbol}`);
    const tonInstead = await put(await payer.send([tonPayment(address, toNano('5'))])).expect(400);
    expect(tonInstead.body.errors.txHash).toMatch(/is no jetton transfer/);
    const paid = await put(await payer.send([jettonPayment(payerJettons, address, toNano('5'), payer.address)])).expect(200);
    expect(paid.body.status).toBe('done');
    // the 4 sent by mistake arrived too; the check refused it, not the chain
    expect(await jettonsOf(address)).toBe(toNano('9'));
  });

  it('keeps the withdrawal pending when the chain cannot be reached', async () => {
    const { withdrawal, address } = await withdrawalOf(await tonCoin(), '1');
    const hash = await payer.send([tonPayment(address, toNano('1'))]);
    const { configurePayouts, payoutRuntime } = await import('./chainPayments');
    const { httpTonChain } = await import('../../lib/ton/tonChain');
    const before = payoutRuntime();
    configurePayouts({ ...before!, chain: httpTonChain({ root: 'http://127.0.0.1:9', timeoutMs: 2_000 }) });
    try {
      const res = await api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: hash }).expect(503);
      expect(res.body.message).toMatch(/TON network could not be reached/);
      expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({
        status: 'pending',
        chainNote: expect.stringMatching(/could not be reached/),
      });
      expect((await api.get(`/withdraws/${withdrawal.id}`).expect(200)).body.chainNote).toMatch(/the hash .* was not checked/);
    } finally {
      configurePayouts(before);
    }
  });
});

describe('automated payouts from the hot wallet', () => {
  let api: ReturnType<typeof consoleApi>;
  beforeAll(async () => {
    const { token } = await createOperator();
    api = consoleApi(app, token);
  });

  it('pays one withdrawal in TON and one in a jetton once approved, confirmed from the chain', async () => {
    const inTon = await withdrawalOf(await tonCoin(), '1.25');
    const inGift = await withdrawalOf(await giftCoin(), '40');
    for (const { withdrawal } of [inTon, inGift]) {
      expect((await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200)).body).toMatchObject({ status: 'approved' });
    }
    const report = await payoutRounds();
    expect(report).toMatchObject({ batched: 2, confirmed: 2, bounced: 0 });
    expect(await received(inTon.address)).toBe(toNano('1.25'));
    expect(await jettonsOf(inGift.address)).toBe(toNano('40'));
    for (const { withdrawal, user } of [inTon, inGift]) {
      const shown = (await api.get(`/withdraws/${withdrawal.id}`).expect(200)).body;
      expect(shown).toMatchObject({ status: 'done', chainState: 'confirmed' });
      expect(shown.txHash).toMatch(/^[0-9a-f]{64}$/);
      expect((await playerCaller(user).withdrawals.history({ page: 1, pageSize: 5 })).items[0]).toMatchObject({
        status: 'done',
        txHash: shown.txHash,
      });
    }
  });

  it('pays a batch of 200 in one signed message, each exactly once', async () => {
    const coin = await tonCoin();
    const all = await Promise.all(Array.from({ length: 200 }, () => withdrawalOf(coin, '1')));
    const { token } = await createOperator();
    const operator = consoleApi(app, token);
    for (const { withdrawal } of all) await operator.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await payoutRounds();
    const batches = await PayoutBatchModel.find({ withdrawals: { $in: all.map((a) => a.withdrawal.id) } }).lean();
    expect(batches.map((b) => [b.state, b.withdrawals.length])).toEqual([['confirmed', 200]]);
    const balances = await Promise.all(all.map(({ address }) => received(address)));
    expect(balances.every((balance) => balance === toNano('1'))).toBe(true);
    expect(await WithdrawalModel.countDocuments({ _id: { $in: all.map((a) => a.withdrawal.id) }, status: 'done' })).toBe(200);
    for (const { user } of all.slice(0, 20)) expect((await expectLedgerMatchesBalances(user._id)).get(coin.id)).toBe(toMicros('999'));
  });

  it('returns a jetton payout that failed in the hot jetton wallet to the operators with the reason; not done, and refunded only by their decision', async () => {
    const coin = await giftCoin();
    const { withdrawal, user, address } = await withdrawalOf(coin, '25');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    const hot = Address.parse(ton.standIn.hotWallet);
    const hotJettons = await jettonWalletOf(ton.chain, Address.parse(ton.standIn.jettons.GIFT!), hot);
    // between signing and sending, the hot wallet's jettons leave (an operator moved them): the transfer fails there
    onFault(async (...reached) => {
      if (pointName(...reached) !== 'ledger:after-step:payout-batch:sign') return;
      onFault(null);
      const all = await ton.chain.jettonBalance(hotJettons);
      await ton.standIn.blockchain
        .openContract(JettonWallet.createFromAddress(hotJettons))
        .send(ton.standIn.blockchain.sender(hot), Address.parseRaw(`0:${'77'.repeat(32)}`), all, { value: toNano('0.2') });
    });
    const report = await payoutRounds();
    expect(report).toMatchObject({ bounced: 1, confirmed: 0 });
    expect(await jettonsOf(address)).toBe(0n);
    // back in the operators' queue, saying why; the player's balance is not given back by the chain's failure alone
    const shown = (await api.get(`/withdraws/${withdrawal.id}`).expect(200)).body;
    expect(shown).toMatchObject({ status: 'pending', chainState: 'bounced', txHash: '', explorerUrl: '', approvedBy: null });
    expect(shown.chainNote).toMatch(
      new RegExp(
        `^The automated payout in transaction [0-9a-f]{64} was not paid\\. The ${coin.symbol} transfer failed in the payout wallet's jetton wallet \\(exit code \\d+\\)`,
      ),
    );
    expect(shown.chainNote).toMatch(new RegExp(`no ${coin.symbol} left it\\.$`));
    expect(await balanceOf(user._id, coin._id)).toBe(toMicros('975'));
    // the player is told only what is true: it waits, with no transaction to look at
    expect((await playerCaller(user).withdrawals.history({ page: 1, pageSize: 5 })).items[0]).toMatchObject({
      status: 'pending',
      txHash: '',
      explorerUrl: '',
    });
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: 'The payout failed on chain' }).expect(200);
    expect(await balanceOf(user._id, coin._id)).toBe(toMicros('1000'));
    // give the jettons back for the other tests
    const drained = await jettonWalletOf(ton.chain, Address.parse(ton.standIn.jettons.GIFT!), Address.parseRaw(`0:${'77'.repeat(32)}`));
    await ton.standIn.blockchain
      .openContract(JettonWallet.createFromAddress(drained))
      .send(ton.standIn.blockchain.sender(Address.parseRaw(`0:${'77'.repeat(32)}`)), hot, await ton.chain.jettonBalance(drained), {
        value: toNano('0.2'),
      });
  });

  it('re-pays once a batch that provably expired unsent', async () => {
    const { withdrawal, address } = await withdrawalOf(await tonCoin(), '2');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await ton.control({ dropSends: 1000 });
    await runPayoutRound();
    await runPayoutRound();
    const first = await PayoutBatchModel.findOne({ withdrawals: withdrawal.id }).lean();
    expect(first).toMatchObject({ state: 'sent' });
    expect(first!.sends).toBeGreaterThanOrEqual(2);
    // the batch's time runs out on chain; only then is it given up and its withdrawal queued again
    await ton.control({ advanceSeconds: 200, dropSends: 0 });
    const report = await payoutRounds();
    expect(report.requeued).toBe(1);
    expect((await PayoutBatchModel.find({ withdrawals: withdrawal.id }).sort({ createdAt: 1 }).lean()).map((b) => b.state)).toEqual([
      'expired',
      'confirmed',
    ]);
    expect(await received(address)).toBe(toNano('2'));
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'done' });
  });

  it('sends a batch again when the TON API did not answer its send, and pays it once', async () => {
    const { withdrawal, address } = await withdrawalOf(await tonCoin(), '2.5');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await ton.control({ failSends: 2 });
    // the send may or may not have reached the chain: the round says the API did not answer, the settling finds out
    expect((await runPayoutRound()).stopped).toMatch(/TON API could not be reached/);
    const signed = await PayoutBatchModel.findOne({ withdrawals: withdrawal.id }).lean();
    expect(signed).toMatchObject({ state: 'signed', sends: 0 });
    await payoutRounds();
    expect(await PayoutBatchModel.findById(signed!._id).lean()).toMatchObject({ state: 'confirmed', message: signed!.message });
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'done' });
    expect(await received(address)).toBe(toNano('2.5'));
  });

  it('stops by itself when the hot wallet cannot cover the next batch, and when paused', async () => {
    const { withdrawal } = await withdrawalOf(await tonCoin(), '999');
    const rich = await withdrawalOf(await tonCoin(), '1');
    await api.put(`/withdraws/${rich.withdrawal.id}`, { status: 'approved' }).expect(200);
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { payoutsPaused: true } }, { upsert: true });
    expect(await runPayoutRound()).toMatchObject({ batched: 0, stopped: 'paused' });
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { payoutsPaused: false } });
    await payoutRounds();
    // far more TON than the hot wallet holds
    await WithdrawalModel.updateOne({ _id: withdrawal.id }, { $set: { amount: Number(toMicros('900000')) } });
    // above the coin's default threshold: a second operator approves too
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await consoleApi(app, (await createOperator()).token)
      .put(`/withdraws/${withdrawal.id}`, { status: 'approved' })
      .expect(200);
    expect((await WithdrawalModel.findById(withdrawal.id).lean())?.status).toBe('approved');
    const report = await runPayoutRound();
    expect(report.stopped).toMatch(/cannot cover the next payouts/);
    const treasury = (await api.get('/treasury/treasury').expect(200)).body;
    expect(treasury).toMatchObject({ mode: 'automated', stopped: expect.stringMatching(/cannot cover/) });
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: 'Too large for the hot wallet' }).expect(200);
  });

  it('needs two different operators above the coin threshold, and keeps to the daily cap', async () => {
    const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1', payoutApprovalAbove: '12', payoutDailyCap: '25' });
    const big = await withdrawalOf(coin, '15');
    const first = (await api.put(`/withdraws/${big.withdrawal.id}`, { status: 'approved' }).expect(200)).body;
    expect(first).toMatchObject({ status: 'pending' });
    const again = await api.put(`/withdraws/${big.withdrawal.id}`, { status: 'approved' }).expect(403);
    expect(again.body.message).toBe(`A withdrawal above 12 ${coin.symbol} needs a second operator's approval; you gave the first`);
    const { token } = await createOperator();
    await consoleApi(app, token).put(`/withdraws/${big.withdrawal.id}`, { status: 'approved' }).expect(200);
    // 15 paid today: 11 more would pass the cap of 25 and waits, 5 more fits
    const over = await withdrawalOf(coin, '11');
    const fits = await withdrawalOf(coin, '5');
    for (const { withdrawal } of [over, fits]) await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await payoutRounds(4);
    expect((await WithdrawalModel.findById(big.withdrawal.id).lean())?.status).toBe('done');
    expect((await WithdrawalModel.findById(fits.withdrawal.id).lean())?.status).toBe('done');
    expect((await WithdrawalModel.findById(over.withdrawal.id).lean())?.status).toBe('approved');
    expect(await received(over.address)).toBe(0n);
    expect((await runPayoutRound()).stopped).toBe(`Today's payout cap is reached for ${coin.symbol}: the rest waits for tomorrow (UTC)`);
    const treasury = (await api.get('/treasury').expect(200)).body;
    expect(treasury.coins.find((row: { coin: string }) => row.coin === coin.id)).toMatchObject({
      paidToday: '20',
      dailyCap: '25',
      secondApprovalAbove: '12',
    });
    await api.put(`/withdraws/${over.withdrawal.id}`, { status: 'rejected', rejectReason: 'Over the cap' }).expect(200);
  });

  it('never pays twice when a round stalls past its lease between claiming and signing, and another one takes over', async () => {
    const coin = await tonCoin();
    const all = await Promise.all(Array.from({ length: 3 }, () => withdrawalOf(coin, '1.5')));
    for (const { withdrawal } of all) await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    let tookOver = false;
    onFault(async (...reached) => {
      if (pointName(...reached) !== 'ledger:after-step:payout-batch:claim' || tookOver) return;
      tookOver = true;
      // the other instance's round: it finds this round's batch claimed, and finishes it by the same steps
      await runPayoutRound();
      await runPayoutRound();
    });
    // the stalled round goes on: its batch is signed, sent and settled already, so it signs and sends nothing more
    await runPayoutRound();
    onFault(null);
    await payoutRounds();
    const batches = await PayoutBatchModel.find({ withdrawals: { $in: all.map((a) => a.withdrawal.id) } })
      .sort({ createdAt: 1 })
      .lean();
    expect(batches.map((b) => b.state)).toEqual(['confirmed']);
    expect(batches[0]!.sends).toBe(1);
    for (const { address, withdrawal } of all) {
      expect(await received(address)).toBe(toNano('1.5'));
      expect((await WithdrawalModel.findById(withdrawal.id).lean())?.status).toBe('done');
    }
  });

  it('finishes a batch a crash cut off after signing by the next payouts round, not the sweep: the recorded message sent once, confirmed', async () => {
    const { withdrawal, address } = await withdrawalOf(await tonCoin(), '3');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    onFault((...reached) => {
      if (pointName(...reached) === 'ledger:after-step:payout-batch:sign') throw new Error('killed after signing');
    });
    await expect(runPayoutRound()).rejects.toThrow('killed after signing');
    onFault(null);
    const signed = await PayoutBatchModel.findOne({ withdrawals: withdrawal.id }).lean();
    expect(signed).toMatchObject({ state: 'signed', sends: 0 });
    expect(await received(address)).toBe(0n);
    // the engine's sweep leaves the batch's operation to the payouts job: nothing sent, the chain not asked
    const lookups = ton.settlementLookups();
    await recoverPendingEntries(0);
    expect(await PayoutBatchModel.findById(signed!._id).lean()).toMatchObject({ state: 'signed', sends: 0 });
    expect(ton.settlementLookups()).toBe(lookups);
    // the restarted job's rounds finish it from its record
    for (let pass = 0; pass < 5; pass++) {
      await payoutsJob.run(jobContext);
      if ((await WithdrawalModel.findById(withdrawal.id).lean())?.status === 'done') break;
    }
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'done', txHash: expect.any(String) });
    expect(await PayoutBatchModel.findById(signed!._id).lean()).toMatchObject({ state: 'confirmed', message: signed!.message, sends: 1 });
    expect(await OperationModel.findOne({ key: `payout-batch:${String(signed!._id)}` }).lean()).toMatchObject({
      state: 'done',
      steps: ['claim', 'sign', 'send', 'settle'],
    });
    expect(await received(address)).toBe(toNano('3'));
  });

  it('polls a batch waiting on the chain from the payouts job alone, once a pass: the sweep leaves it to the job', async () => {
    const { withdrawal, address } = await withdrawalOf(await tonCoin(), '2');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    // the chain drops its sends: the batch is signed and sent, and waits to land
    await ton.control({ dropSends: 1000 });
    await payoutsJob.run(jobContext);
    const batch = await PayoutBatchModel.findOne({ withdrawals: withdrawal.id }).lean();
    expect(batch).toMatchObject({ state: 'sent' });

    const lookups = () => ton.settlementLookups();
    let before = lookups();
    await recoverPendingEntries(0);
    expect(lookups() - before).toBe(0);
    before = lookups();
    await payoutsJob.run(jobContext);
    expect(lookups() - before).toBe(1);
    expect(await PayoutBatchModel.findById(batch!._id).lean()).toMatchObject({ state: 'sent' });

    // the chain takes it: the job's next passes settle it, paid once
    await ton.control({ dropSends: 0 });
    for (let pass = 0; pass < 5 && (await WithdrawalModel.findById(withdrawal.id).lean())?.status !== 'done'; pass++) {
      await payoutsJob.run(jobContext);
      await recoverPendingEntries(0);
    }
    expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'done' });
    expect(await PayoutBatchModel.findById(batch!._id).lean()).toMatchObject({ state: 'confirmed' });
    expect(await received(address)).toBe(toNano('2'));
  });

  it("pays the other coins when one coin's jetton master is not on the chain, and says why that one waits", async () => {
    const lost = await createCoin({ network: 'jetton', jettonMaster: randomAddress().toString(), decimals: 9, minWithdraw: '0.1' });
    const stuck = await withdrawalOf(lost, '2');
    const fine = await withdrawalOf(await tonCoin(), '2');
    for (const { withdrawal } of [stuck, fine]) await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    const report = await runPayoutRound();
    expect(report).toMatchObject({
      batched: 1,
      stopped: `Payouts of ${lost.symbol} could not be prepared: the TON API did not answer for them`,
    });
    await payoutRounds(3);
    expect(await received(fine.address)).toBe(toNano('2'));
    expect(await WithdrawalModel.findById(stuck.withdrawal.id).lean()).toMatchObject({
      status: 'approved',
      chainNote: expect.stringMatching(/could not be prepared/i),
    });
    await api.put(`/withdraws/${stuck.withdrawal.id}`, { status: 'rejected', rejectReason: 'Unknown jetton' }).expect(200);
  });

  it('names every reason part of the queue waits, in the round and on the treasury, not only the last', async () => {
    const lost = await createCoin({ network: 'jetton', jettonMaster: randomAddress().toString(), decimals: 9, minWithdraw: '0.1' });
    const capped = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1', payoutDailyCap: '1' });
    const waiting = [await withdrawalOf(lost, '2'), await withdrawalOf(capped, '2'), await withdrawalOf(await tonCoin(), '2')];
    for (const { withdrawal } of waiting) await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    // far more TON than the hot wallet holds, once approved
    await WithdrawalModel.updateOne({ _id: waiting[2]!.withdrawal.id }, { $set: { amount: Number(toMicros('900000')) } });
    const everyReason = [
      `Payouts of ${lost.symbol} could not be prepared: the TON API did not answer for them`,
      `Today's payout cap is reached for ${capped.symbol}: the rest waits for tomorrow (UTC)`,
      'The hot wallet cannot cover the next payouts (TON): fund it',
    ].join('. ');
    expect(await runPayoutRound()).toMatchObject({ batched: 0, stopped: everyReason });
    expect((await api.get('/treasury/treasury').expect(200)).body.stopped).toBe(everyReason);
    for (const { withdrawal } of waiting)
      await api.put(`/withdraws/${withdrawal.id}`, { status: 'rejected', rejectReason: 'Cannot be paid' }).expect(200);
  });

  it('lets only withdrawal operators see the treasury, only writers pause it, and audits the switch', async () => {
    const missionsOnly = consoleApi(app, (await createOperator(['missions:write'])).token);
    await missionsOnly.get('/treasury').expect(403);
    await missionsOnly.put('/treasury/treasury', { paused: true }).expect(403);
    const reader = consoleApi(app, (await createOperator(['withdraws:read'])).token);
    expect((await reader.get('/treasury/treasury').expect(200)).body).toMatchObject({ id: 'treasury', mode: 'automated', paused: false });
    await reader.put('/treasury/treasury', { paused: true }).expect(403);
    expect((await api.put('/treasury/treasury', { paused: 'yes' }).expect(400)).body.errors).toEqual({
      paused: 'paused must be true or false',
    });
    expect((await api.put('/treasury/treasury', { paused: true }).expect(200)).body.paused).toBe(true);
    expect(await runPayoutRound()).toMatchObject({ stopped: 'paused' });
    expect((await api.put('/treasury/treasury', { paused: false }).expect(200)).body.paused).toBe(false);
    const audited = await AuditEntryModel.find({ resource: 'treasury' }, { action: 1, after: 1, _id: 0 }).sort({ createdAt: 1 }).lean();
    expect(audited).toEqual([
      { action: 'update', after: { paused: true } },
      { action: 'update', after: { paused: false } },
    ]);
  });

  it('two instances sharing the database pay 100 approved withdrawals, each exactly once', async () => {
    const coin = await tonCoin();
    const all = await Promise.all(Array.from({ length: 100 }, () => withdrawalOf(coin, '0.5')));
    await WithdrawalModel.updateMany(
      { _id: { $in: all.map((a) => a.withdrawal.id) } },
      { $set: { status: 'approved', approvedAt: new Date() } },
    );
    // each instance runs the sender under the payouts job's lease, as the jobs do (modules/jobs/jobs.service.ts)
    const instance = () => runIfFree('payouts', () => runPayoutRound(), { ttlMs: 30_000 });
    for (let round = 0; round < 12; round++) {
      await Promise.all([instance(), instance()]);
      if (!(await WithdrawalModel.exists({ _id: { $in: all.map((a) => a.withdrawal.id) }, status: { $ne: 'done' } }))) break;
    }
    const balances = await Promise.all(all.map(({ address }) => received(address)));
    expect(balances.filter((balance) => balance === toNano('0.5'))).toHaveLength(100);
    for (const { user } of all) expect((await expectLedgerMatchesBalances(user._id)).get(coin.id)).toBe(toMicros('999.5'));
  });
});

describe('attacks: a payout is done only when the chain shows the money arrived (issue 32)', () => {
  let api: ReturnType<typeof consoleApi>;
  let payer: TestWallet;
  beforeAll(async () => ({ api, payer } = await operatorWithPayoutWallet()));

  /** The withdrawal as it is stored, and what the ledger and the used hashes hold, to show a refusal changed nothing. */
  const stateOf = async (id: string, userId: unknown) => ({
    withdrawal: await WithdrawalModel.findById(id).lean(),
    balance: await balanceOf(userId as string, (await WithdrawalModel.findById(id).lean())!.coin),
    used: await UsedTxHashModel.countDocuments({ withdrawal: id }),
  });

  it('refuses the hash of a bounceable TON transfer to an undeployed wallet: it bounced back to the payer', async () => {
    const { withdrawal, address, user } = await withdrawalOf(await tonCoin(), '2');
    const before = await stateOf(withdrawal.id, user._id);
    const hash = await payer.send([internal({ to: address, value: toNano('2'), bounce: true, body: 'Paid by hand' })]);
    // the chain: the payer's transaction succeeded, the destination's bounced, and the address holds nothing
    expect(await received(address)).toBe(0n);
    const res = await api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: hash }).expect(400);
    expect(res.body.errors.txHash).toBe(
      'The payment did not arrive: it bounced: the destination wallet is not deployed, and the coins went back to the payout wallet: it paid nothing',
    );
    expect(await stateOf(withdrawal.id, user._id)).toEqual(before);
    expect(before.withdrawal).toMatchObject({ status: 'pending', txHash: '' });
    expect(await UsedTxHashModel.exists({ hash })).toBeNull();
  });

  it('refuses the hash of a jetton transfer that ran out of gas in the payer’s jetton wallet (exit code -14)', async () => {
    const coin = await giftCoin();
    const { withdrawal, address, user } = await withdrawalOf(coin, '200');
    const master = Address.parse(ton.standIn.jettons.GIFT!);
    const hot = Address.parse(ton.standIn.hotWallet);
    // the payer holds GIFT, given by the hot wallet
    await ton.standIn.blockchain
      .openContract(JettonWallet.createFromAddress(await jettonWalletOf(ton.chain, master, hot)))
      .send(ton.standIn.blockchain.sender(hot), payer.address, toNano('1000'), { value: toNano('0.2') });
    const payerJettons = await jettonWalletOf(ton.chain, master, payer.address);
    const before = await stateOf(withdrawal.id, user._id);
    // 0.0001 TON buys 250 gas: the jetton wallet stops before it moves anything
    const starved = internal({
      to: payerJettons,
      value: toNano('0.0001'),
      bounce: true,
      body: jettonTransferBody({
        queryId: 9n,
        amount: toNano('200'),
        destination: address,
        responseTo: payer.address,
        text: 'Paid by hand',
      }),
    });
    const hash = await payer.send([starved]);
    expect(await jettonsOf(address)).toBe(0n);
    const res = await api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: hash }).expect(400);
    expect(res.body.errors.txHash).toBe(
      `The ${coin.symbol} transfer failed in the payout wallet's jetton wallet (exit code -14): no ${coin.symbol} left it: it paid nothing`,
    );
    expect(await stateOf(withdrawal.id, user._id)).toEqual(before);
    expect(await UsedTxHashModel.exists({ hash })).toBeNull();
    // a transfer that did arrive pays it
    const paid = await payer.send([jettonPayment(payerJettons, address, toNano('200'), payer.address)]);
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'done', txHash: paid }).expect(200);
    expect(await jettonsOf(address)).toBe(toNano('200'));
  });

  it('refuses the hot wallet’s batch hash that paid withdrawal A for withdrawal B of the same address and amount, before and after A is confirmed', async () => {
    const coin = await tonCoin();
    const a = await withdrawalOf(coin, '2');
    // B: the same player asks again, to the same wallet, for the same amount
    const b = await playerCaller(a.user).withdrawals.request({
      coinId: coin.id,
      amount: '2',
      idempotencyKey: `tap-${randomBytes(6).toString('hex')}`,
    });
    await api.put(`/withdraws/${a.withdrawal.id}`, { status: 'approved' }).expect(200);
    const before = await stateOf(b.id, a.user._id);
    // while A's batch has landed but A is not confirmed yet, an operator types the batch's hash for B
    let early: { status: number; body: { errors?: { txHash?: string } } } | null = null;
    let typed = false;
    onFault(async (...reached) => {
      // the chain showed A's payment arrived: its decision is recorded, not taken yet
      if (pointName(...reached) !== 'ledger:after-record:withdrawal-decision' || typed) return;
      typed = true;
      const landed = await WithdrawalModel.findById(a.withdrawal.id).lean();
      expect(landed).toMatchObject({ status: 'sending' });
      early = await api.put(`/withdraws/${b.id}`, { status: 'done', txHash: landed!.txHash });
    });
    await payoutRounds();
    onFault(null);
    expect(early).toMatchObject({
      status: 400,
      body: { errors: { txHash: "This transaction is a payout batch of the hot wallet: it paid that batch's withdrawals and no other" } },
    });
    const paidA = await WithdrawalModel.findById(a.withdrawal.id).lean();
    expect(paidA).toMatchObject({ status: 'done', payout: expect.objectContaining({ state: 'confirmed' }) });
    // the batch's transaction and A's message are recorded as used
    expect(await UsedTxHashModel.findOne({ hash: paidA!.txHash }).lean()).toMatchObject({
      kind: 'tx',
      withdrawal: null,
      batch: paidA!.payout!.batch,
    });
    expect(await UsedTxHashModel.countDocuments({ withdrawal: paidA!._id, kind: 'message' })).toBe(1);

    const late = await api.put(`/withdraws/${b.id}`, { status: 'done', txHash: paidA!.txHash }).expect(400);
    expect(late.body.errors.txHash).toBe(
      "This transaction is a payout batch of the hot wallet: it paid that batch's withdrawals and no other",
    );
    expect(await stateOf(b.id, a.user._id)).toEqual(before);
    expect(await received(a.address)).toBe(toNano('2'));
  });

  it('holds an approved payout when the player owes a claw-back since, and pays it once the claw-back is settled', async () => {
    const { coin, user, withdrawal, address, entryId } = await withdrawalOf(await tonCoin(), '600');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    // after the approval, the credit is taken back: 400 are taken, 600 owed
    await api.post(`/users/${user.id}/claw-backs`, { entryId, reason: 'A farmed gift' }).expect(201);
    const report = await payoutRounds(3);
    expect(report.batched).toBe(0);
    expect(await received(address)).toBe(0n);
    const held = (await api.get(`/withdraws/${withdrawal.id}`).expect(200)).body;
    expect(held).toMatchObject({ status: 'approved', chainNote: expect.stringMatching(/owes a claw-back/) });

    // the player is credited again: the claw-back takes it and is settled, and the payout goes
    await fund(user._id, coin._id, '600');
    await collectOwed();
    expect(await payoutRounds()).toMatchObject({ batched: 1, confirmed: 1 });
    expect(await received(address)).toBe(toNano('600'));
    expect((await api.get(`/withdraws/${withdrawal.id}`).expect(200)).body).toMatchObject({ status: 'done', chainNote: '' });
    expect((await expectLedgerMatchesBalances(user._id)).get(coin.id)).toBe(0n);
  });

  it.each([
    'ledger:after-record:payout-batch',
    'ledger:after-step:payout-batch:claim',
    'ledger:after-step:payout-batch:sign',
    'ledger:after-step:payout-batch:send',
    'ledger:after-record:withdrawal-decision',
  ])('a payout held for a claw-back, stopped at %s once it may go, is paid exactly once', async (point) => {
    const { coin, user, withdrawal, address, entryId } = await withdrawalOf(await tonCoin(), '6', '10');
    await api.put(`/withdraws/${withdrawal.id}`, { status: 'approved' }).expect(200);
    await api.post(`/users/${user.id}/claw-backs`, { entryId, reason: 'A farmed gift' }).expect(201);
    // stopped at the point in every round while held: the held payout never reaches it
    let stops = 0;
    onFault((...reached) => {
      if (pointName(...reached) !== point) return;
      stops++;
      throw new Error(`stopped at ${point}`);
    });
    await payoutRounds(2);
    expect(stops).toBe(0);
    await fund(user._id, coin._id, '6');
    await collectOwed();
    // once it may go, the round dies at the point (as a kill -9 would leave it), then the next rounds finish
    await expect(payoutRounds(3)).rejects.toThrow(`stopped at ${point}`);
    onFault(null);
    await payoutRounds();
    expect(await received(address)).toBe(toNano('6'));
    const paid = await WithdrawalModel.findById(withdrawal.id).lean();
    expect(paid).toMatchObject({ status: 'done', decision: `decision:${withdrawal.id}` });
    const sent = ton.standIn
      .transactionsOf(Address.parse(ton.standIn.hotWallet))
      .flatMap((tx) => [...tx.outMessages.values()])
      .filter((message) => message.body.hash().toString('hex') === paid!.payout?.bodyHash);
    expect(sent).toHaveLength(1);
    expect((await expectLedgerMatchesBalances(user._id)).get(coin.id)).toBe(0n);
  });
});
