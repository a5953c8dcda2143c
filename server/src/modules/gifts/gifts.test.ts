import { toMicros } from '@gift/shared';
import { createApp } from '../../app';
import { onFault } from '../../lib/faults';
import { AuditEntryModel } from '../audit/audit.model';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, postEntry, recoverPendingEntries } from '../ledger/ledger.service';
import { booksFigures } from '../ledger/books.service';
import { createCoin, createPlayer, fund } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { silentLogger, testEnv } from '../../../test/helpers';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import mongoose from 'mongoose';
import { auditGiftsOfOlderVersion, finishApprovedGiftsOfOlderVersion } from './balanceAdjustment.service';
import { GiftApprovalModel } from './giftApproval.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
let keys = 0;
const key = () => `gift-test-${++keys}-${Date.now()}`;

async function setting() {
  const [asker, second, third] = await Promise.all([
    createOperator(['gifts:write']),
    createOperator(['gifts:write']),
    createOperator(['gifts:write', 'audit:read']),
  ]);
  const player = await createPlayer();
  // above 100 GIFT a second operator approves
  const coin = await createCoin({ symbol: 'GIFT', giftApprovalAbove: '100' });
  const askerApi = consoleApi(app, asker.token);
  return {
    asker: askerApi,
    /** The first operator asks for a gift (or a correction) of `amount` GIFT to the player. */
    ask: (amount: string, note: string, direction = 'credit') =>
      askerApi.post(`/users/${String(player._id)}/adjustments`, { coin: String(coin._id), amount, direction, note, idempotencyKey: key() }),
    second: consoleApi(app, second.token),
    third: consoleApi(app, third.token),
    player,
    coin,
    ids: { asker: asker.id, second: second.id, third: third.id },
  };
}

describe("a gift above the coin's threshold", () => {
  afterEach(() => onFault(null));

  it('waits for a second operator: the one who asked cannot approve it, another can, once', async () => {
    const { asker, second, third, player, coin, ids } = await setting();
    const form = { coin: String(coin._id), amount: '9000000', direction: 'credit', note: 'Tournament prize', idempotencyKey: key() };
    const asked = await asker.post(`/users/${String(player._id)}/adjustments`, form);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ pending: true, applied: false, balance: '0' });
    // a double submit asks once
    expect((await asker.post(`/users/${String(player._id)}/adjustments`, form)).body.approvalId).toBe(asked.body.approvalId);
    expect(await balanceOf(player._id, coin._id)).toBe(0n);
    const waiting = await second.get('/gifts', { filter: { status: 'pending' } });
    expect(waiting.body).toMatchObject([{ id: asked.body.approvalId, amount: '9000000', status: 'pending', note: 'Tournament prize' }]);

    const own = await asker.post(`/gifts/${String(asked.body.approvalId)}/approve`);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('A second operator must approve this gift: you asked for it');
    expect(await balanceOf(player._id, coin._id)).toBe(0n);

    // a second and a third operator approving at once, many times over: one credit
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? second : third).post(`/gifts/${String(asked.body.approvalId)}/approve`)),
    );
    // the approval goes to one operator (their repeats finish it, harmlessly); the other is told it was decided
    const approvedBy = new Set(answers.flatMap((a, i) => (a.status === 200 ? [i % 2 ? ids.second : ids.third] : [])));
    expect(approvedBy.size).toBe(1);
    expect(new Set(answers.filter((a) => a.status !== 200).map((a) => a.body.code))).toEqual(new Set(['GIFT_DECIDED']));
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('9000000'));
    expect(await GiftApprovalModel.findById(asked.body.approvalId).lean()).toMatchObject({ status: 'applied' });
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'gift', state: 'posted' })).toBe(1);
    const audit = await AuditEntryModel.find({ record: String(player._id), action: 'adjust' }).lean();
    // audited once, as the approving operator's adjustment
    expect(audit.map((entry) => String(entry.account))).toEqual([...approvedBy]);
    await expectLedgerMatchesBalances(player._id);
    // the Books attribute it to the gifts' house account, and balance
    const [books] = (await booksFigures({ coin: String(coin._id) })).coins;
    expect(books!.house.find((row) => row.account === 'gifts')).toMatchObject({ balance: '-9000000' });
    expect(books!.trialBalance).toBe('0');
  });

  it('is turned down with a reason and never reaches the ledger; below the threshold a gift is applied at once', async () => {
    const { ask, second, player, coin } = await setting();
    const asked = await ask('500', 'Typo?');
    expect((await second.post(`/gifts/${String(asked.body.approvalId)}/reject`, {})).body.errors).toEqual({
      rejectReason: 'This field is required',
    });
    const rejected = await second.post(`/gifts/${String(asked.body.approvalId)}/reject`, { rejectReason: 'Should be 50' });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectReason: 'Should be 50' });
    expect((await second.post(`/gifts/${String(asked.body.approvalId)}/approve`)).body).toMatchObject({
      code: 'GIFT_DECIDED',
      message: 'This gift was already rejected',
    });
    expect(await balanceOf(player._id, coin._id)).toBe(0n);

    const small = await ask('100', 'Small');
    expect(small.status).toBe(201);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('100'));
  });

  it.each(['ledger:after-record', 'ledger:after-apply'])(
    "is given by the engine's sweep alone when a crash stops the approval at %s; a correction the balance no longer covers ends refused",
    async (point) => {
      const { ask, second, player, coin, ids } = await setting();
      const asked = await ask('250', 'Prize');
      onFault((at, kind) => {
        if (at === point && kind === 'gift-approval') throw new Error('killed');
      });
      expect((await second.post(`/gifts/${String(asked.body.approvalId)}/approve`)).status).toBe(500);
      onFault(null);
      expect(await GiftApprovalModel.findById(asked.body.approvalId).lean()).toMatchObject({
        status: point === 'ledger:after-record' ? 'pending' : 'approved',
      });
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('250'));
      const request = await GiftApprovalModel.findById(asked.body.approvalId).lean();
      expect(request).toMatchObject({ status: 'applied', decidedBy: expect.anything() });
      expect(String(request!.decidedBy)).toBe(ids.second);
      // audited once, as the approver's adjustment of that line
      const audit = await AuditEntryModel.find({ record: String(player._id), action: 'adjust' }).lean();
      expect(audit.map((entry) => [String(entry.account), entry.key])).toEqual([[ids.second, `adjust:${request!.entryId}`]]);
      expect(await recoverPendingEntries(0)).toBe(0);
      // the approver's repeat answers what was done, and does nothing more
      expect((await second.post(`/gifts/${String(asked.body.approvalId)}/approve`)).body).toMatchObject({
        status: 'applied',
        balance: '250',
      });
      expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'gift', state: 'posted' })).toBe(1);

      await fund(player._id, coin._id, '50');
      const take = await ask('200', 'Clawed back', 'debit');
      expect(take.status).toBe(202);
      // meanwhile the player spent most of it
      await postEntry({
        userId: player._id,
        coinId: coin._id,
        amount: -toMicros('250'),
        reason: 'withdraw',
        idempotencyKey: `spent-${key()}`,
      });
      const refused = await second.post(`/gifts/${String(take.body.approvalId)}/approve`);
      expect(refused.body.code).toBe('INSUFFICIENT_BALANCE');
      expect(await GiftApprovalModel.findById(take.body.approvalId).lean()).toMatchObject({
        status: 'rejected',
        rejectReason: 'The balance no longer covers this correction',
      });
      await expectLedgerMatchesBalances(player._id);
    },
  );

  it('approved by two operators at once while the sweep finishes an approval a crash stopped: one credit, one audit, one approver', async () => {
    const { ask, second, third, player, coin, ids } = await setting();
    const asked = await ask('300', 'Race');
    const approve = (api: typeof second) => api.post(`/gifts/${String(asked.body.approvalId)}/approve`);
    // the second operator's approval is recorded, then its process dies
    onFault((at, kind) => {
      if (at === 'ledger:after-record' && kind === 'gift-approval') throw new Error('killed');
    });
    expect((await approve(second)).status).toBe(500);
    onFault(null);
    const [a, b, swept] = await Promise.all([approve(second), approve(third), recoverPendingEntries(0)]);
    // the recorded approval is the second operator's: it stands, and the third is told it was decided
    expect(a.status).toBe(200);
    expect(b.body.code).toBe('GIFT_DECIDED');
    expect(swept).toBeLessThanOrEqual(1);
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('300'));
    expect(await LedgerEntryModel.countDocuments({ user: player._id, reason: 'gift', state: 'posted' })).toBe(1);
    const audit = await AuditEntryModel.find({ record: String(player._id), action: 'adjust' }).lean();
    expect(audit.map((entry) => String(entry.account))).toEqual([ids.second]);
    expect(await GiftApprovalModel.findById(asked.body.approvalId).lean()).toMatchObject({ status: 'applied' });
    await expectLedgerMatchesBalances(player._id);
  });

  it('gifts an older version posted without their audit are audited once at start-up, as their operator’s or approver’s', async () => {
    const { asker, ask, player, coin, ids } = await setting();
    const olderGift = (idempotencyKey: string, amount: string, note: string) =>
      // as that version's postEntry wrote a gift: an operation of the plain kind `gift`, its audit left to a later write
      postEntry({
        userId: player._id,
        coinId: coin._id,
        amount: toMicros(amount),
        reason: 'gift',
        refType: 'Account',
        refId: ids.asker,
        idempotencyKey,
        note,
        createdBy: ids.asker,
      });
    // what the older version left: a gift posted and killed before its audit; an approval posted and killed before its audit
    const given = await olderGift(`admin:${key()}`, '50', 'Older gift');
    const asked = await ask('400', 'Older approval');
    await GiftApprovalModel.updateOne(
      { _id: asked.body.approvalId },
      { $set: { status: 'approved', decidedBy: ids.third, decidedAt: new Date() } },
    );
    const request = (await GiftApprovalModel.findById(asked.body.approvalId).lean())!;
    const approved = await olderGift(request.idempotencyKey, '400', 'Older approval');
    // and a gift of this version, audited by its operation's step
    const now = await asker.post(`/users/${String(player._id)}/adjustments`, {
      ...{ coin: String(coin._id), amount: '5', direction: 'credit', note: 'This version', idempotencyKey: key() },
    });
    expect(now.status).toBe(201);
    const byKey = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    const audits = async () =>
      (await AuditEntryModel.find({ record: String(player._id), action: 'adjust' }).lean())
        .map((entry) => [entry.key, String(entry.account)])
        .sort(byKey);

    // the start-up steps that were there before leave both unaudited, and the approval approved but not applied
    await mongoose.connection
      .collection('migrations')
      .deleteMany({ name: { $in: ['gift-approved-unposted', 'gift-audits-of-older-version'] } });
    await finishApprovedGiftsOfOlderVersion();
    await recoverPendingEntries(0);
    expect(await audits()).toEqual([[`adjust:${String(now.body.entryId)}`, ids.asker]]);
    expect(await GiftApprovalModel.findById(request._id).lean()).toMatchObject({ status: 'approved', entryId: '' });

    // the money recovery's step, at its first pass after the grace; then again as though a crash came before it was marked over
    await auditGiftsOfOlderVersion(0);
    await mongoose.connection.collection('migrations').deleteMany({ name: 'gift-audits-of-older-version' });
    await auditGiftsOfOlderVersion(0);
    await auditGiftsOfOlderVersion(0);
    expect(await audits()).toEqual(
      [
        [`adjust:${given.entryId}`, ids.asker],
        [`adjust:${approved.entryId}`, ids.third],
        [`adjust:${String(now.body.entryId)}`, ids.asker],
      ].sort(byKey),
    );
    const older = await AuditEntryModel.findOne({ key: `adjust:${approved.entryId}` }).lean();
    expect(older).toMatchObject({
      resource: 'users',
      note: 'Older approval',
      after: { amount: '+400', symbol: 'GIFT', entryId: approved.entryId },
    });
    expect(await GiftApprovalModel.findById(request._id).lean()).toMatchObject({ status: 'applied', entryId: approved.entryId });
    // nothing given again
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('455'));
    await expectLedgerMatchesBalances(player._id);
  });

  it('an approval an older version left unposted is given once, as its approver’s, at the first pass after the upgrade', async () => {
    const { ask, player, coin, ids } = await setting();
    const asked = await ask('400', 'Older');
    // what the older version left: approved, and killed before its entry
    await GiftApprovalModel.updateOne(
      { _id: asked.body.approvalId },
      { $set: { status: 'approved', decidedBy: ids.third, decidedAt: new Date() } },
    );
    await mongoose.connection.collection('migrations').deleteMany({ name: 'gift-approved-unposted' });
    // the money recovery's step, at its first pass (and a later one, which finds it done)
    await finishApprovedGiftsOfOlderVersion();
    await finishApprovedGiftsOfOlderVersion();
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('400'));
    const request = await GiftApprovalModel.findById(asked.body.approvalId).lean();
    expect(request).toMatchObject({ status: 'applied' });
    const audit = await AuditEntryModel.find({ record: String(player._id), action: 'adjust' }).lean();
    expect(audit.map((entry) => [String(entry.account), entry.key])).toEqual([[ids.third, `adjust:${request!.entryId}`]]);
    await expectLedgerMatchesBalances(player._id);
  });
});
