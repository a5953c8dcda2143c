import { toMicros } from '@gift/shared';
import type { Types } from 'mongoose';
import { createCoin, createPlayer } from '../../../test/factories';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';
import { BalanceModel, LedgerEntryModel, LedgerHoldModel } from './ledger.models';
import { recoverPendingEntries } from './ledger.service';
import { runOperation } from './engine';
import { OperationModel } from './operation.model';

const yesterday = new Date(Date.now() - 86_400_000);

/** A line as the ledger wrote it before the engine: pending until posted, with no operation. */
function oldLine(user: Types.ObjectId, coin: Types.ObjectId, key: string, amount: string, fields: Record<string, unknown> = {}) {
  const debit = amount.startsWith('-');
  const micros = debit ? -toMicros(amount.slice(1)) : toMicros(amount);
  return LedgerEntryModel.create({
    user,
    coin,
    amount: Number(micros),
    reason: debit ? 'withdraw' : 'mining',
    idempotencyKey: key,
    ...fields,
  });
}

describe('lines an older version left pending', () => {
  it('are finished at the first pass: posted where they are once applied, or refused, and none is pending after', async () => {
    const [player, frozen, coin] = await Promise.all([createPlayer(), createPlayer(), createCoin()]);
    // as the ledger before the engine left them: a posted line, one applied to the balance and cut off before it was posted,
    // one written and cut off before it was applied (yesterday's), a debit the balance cannot cover, and a frozen player's own
    await oldLine(player._id, coin._id, 'old:posted', '2', { state: 'posted' });
    const applied = await oldLine(player._id, coin._id, 'old:applied', '10');
    await BalanceModel.create({ user: player._id, coin: coin._id, amount: Number(toMicros('12')), appliedKeys: ['old:applied'] });
    const unapplied = await oldLine(player._id, coin._id, 'old:unapplied', '5');
    await LedgerEntryModel.collection.updateOne({ _id: unapplied._id }, { $set: { createdAt: yesterday } });
    await oldLine(player._id, coin._id, 'old:uncovered', '-100', { refType: 'Withdrawal', refId: 'w1', guarded: true });
    await oldLine(frozen._id, coin._id, 'old:frozen', '3', { state: 'posted' });
    await BalanceModel.create({ user: frozen._id, coin: coin._id, amount: Number(toMicros('3')), appliedKeys: [] });
    await oldLine(frozen._id, coin._id, 'old:held', '-1', { refType: 'Withdrawal', refId: 'w2', guarded: true });
    await LedgerHoldModel.create({ _id: frozen._id, code: 'ACCOUNT_FROZEN' });
    expect(await LedgerEntryModel.countDocuments({ state: 'pending' })).toBe(4);

    // the money recovery's first pass: the lines get their operations, the pending ones are finished, then the engine's sweep
    // (the two it posted are counted as finished; the two refused, removed, are not)
    expect(await recoverPendingEntries(0)).toBe(2);
    expect(await LedgerEntryModel.countDocuments({ state: 'pending' })).toBe(0);
    // applied once each: the one the older version applied was not applied again; the others' keys are gone with them
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('17'));
    expect((await expectLedgerMatchesBalances(frozen._id)).get(String(coin._id))).toBe(toMicros('3'));
    const balance = await BalanceModel.findOne({ user: player._id }, { appliedKeys: 1 }).lean();
    expect([...balance!.appliedKeys].sort()).toEqual(['old:applied', 'old:unapplied']);
    // posted where they were: the same lines, the unapplied one still of yesterday (the day's figures count it there)
    const posted = await LedgerEntryModel.find({ user: player._id }).sort({ idempotencyKey: 1 }).lean();
    expect(posted.map((line) => line.idempotencyKey)).toEqual(['old:applied', 'old:posted', 'old:unapplied']);
    expect(String(posted[0]!._id)).toBe(String(applied._id));
    expect(String(posted[2]!._id)).toBe(String(unapplied._id));
    expect(posted[2]!.createdAt).toEqual(yesterday);
    // each posted line has its operation, done; the refused ones left none
    const operations = await OperationModel.find({}).sort({ key: 1 }).lean();
    expect(operations.map((operation) => `${operation.key} ${operation.state}`)).toEqual([
      'old:applied done',
      'old:frozen done',
      'old:posted done',
      'old:unapplied done',
    ]);
    for (const line of posted) expect(String(line.operation)).toBe(String(operations.find((o) => o.key === line.idempotencyKey)!._id));

    // once: a later pass, and a retry of a finished line's key through the engine, move nothing
    expect(await recoverPendingEntries(0)).toBe(0);
    const retried = await runOperation({
      kind: 'mining',
      key: 'old:unapplied',
      players: [{ user: player._id, coin: coin._id, amount: toMicros('5'), reason: 'mining' }],
      house: [{ account: 'rewards:mining', coin: coin._id, amount: -toMicros('5') }],
    });
    expect(retried.applied).toBe(false);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('17'));
  });
});
