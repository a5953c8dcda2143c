import type { Types } from 'mongoose';
import { fromMicros, LEDGER_REASONS, toMicros, type HouseAccount } from '@gift/shared';
import { onFault } from '../../lib/faults';
import { createCoin, createPlayer } from '../../../test/factories';
import { BalanceModel, LedgerEntryModel } from './ledger.models';
import { OperationModel } from './operation.model';
import { AppError } from '../../lib/errors';
import {
  balanceOf,
  guardedEntriesInFlight,
  holdPlayer,
  moveHouseValue,
  postEntry,
  recoverPendingEntries,
  releasePlayer,
} from './ledger.service';
import { HOUSE_SIDE } from './houseSide';
import { finishInterrupted, recordOperation, registerOperationKind, runOperation, unregisterForTest } from './engine';

/** Every posting of every operation, summed per coin and account ('player' for players). */
async function booksOf(coinId: Types.ObjectId) {
  const operations = await OperationModel.find({}).lean();
  const accounts = new Map<string, bigint>();
  const perOperation: bigint[] = [];
  for (const operation of operations) {
    let sum = 0n;
    for (const posting of operation.postings) {
      if (String(posting.coin) !== String(coinId)) continue;
      accounts.set(posting.account, (accounts.get(posting.account) ?? 0n) + BigInt(posting.amount));
      sum += BigInt(posting.amount);
    }
    perOperation.push(sum);
  }
  return { accounts, perOperation };
}

/** What the players hold of a coin, summed over their balances. */
async function playersHold(coinId: Types.ObjectId): Promise<bigint> {
  const balances = await BalanceModel.find({ coin: coinId }).lean();
  return balances.reduce((sum, b) => sum + BigInt(b.amount), 0n);
}

/** The books hold for this coin: each operation adds up to zero, and the players hold what the house gave out. */
async function expectBalancedBooks(coinId: Types.ObjectId) {
  const { accounts, perOperation } = await booksOf(coinId);
  expect(perOperation.filter((sum) => sum !== 0n)).toEqual([]);
  expect(accounts.get('player') ?? 0n).toBe(await playersHold(coinId));
  let house = 0n;
  for (const [account, amount] of accounts) if (account !== 'player') house += amount;
  expect(house + (await playersHold(coinId))).toBe(0n);
  return accounts;
}

/** A signed decimal amount ("-4") in micro-units. */
const signed = (amount: string) => (amount.startsWith('-') ? -toMicros(amount.slice(1)) : toMicros(amount));

const post = (user: { id: string }, coin: { id: string }, amount: string, reason: (typeof LEDGER_REASONS)[number], key: string) =>
  postEntry({ userId: user.id, coinId: coin.id, amount: signed(amount), reason, idempotencyKey: key });

/** A streak reward of `amount` to the player, under this kind and key. */
const streakReward = (kind: string, key: string, player: { id: string }, coin: { id: string }, amount: string) => ({
  kind,
  key,
  players: [{ user: player.id, coin: coin.id, amount: toMicros(amount), reason: 'streak' as const }],
  house: [{ account: 'rewards:streak' as const, coin: coin.id, amount: -toMicros(amount) }],
});

describe('the money engine', () => {
  afterEach(() => onFault(null));

  it('keeps one balance exact under 200 simultaneous operations, never below zero, and the books balanced', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    await post(player, coin, '50', 'gift', 'e1:seed');
    // 100 credits of 1 and 100 debits of 1 at once: every credit lands, a debit lands only while the balance covers it
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        i % 2 ? post(player, coin, '1', 'mission', `e1:credit:${i}`) : post(player, coin, '-1', 'withdraw', `e1:debit:${i}`),
      ),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    const debits = 100 - refused.length;
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe(String(50 + 100 - debits));
    // one line and one finished operation per movement that landed, none for a refused one
    expect(await LedgerEntryModel.countDocuments({ user: player._id })).toBe(1 + 100 + debits);
    expect(await OperationModel.countDocuments({ user: player._id })).toBe(1 + 100 + debits);
    // each call left its operation for the sweep to mark: it marks them all done in bulk, finishing nothing (none was cut off)
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await OperationModel.countDocuments({ state: { $ne: 'done' } })).toBe(0);
    const accounts = await expectBalancedBooks(coin._id);
    expect(accounts.get('rewards:mission')).toBe(-toMicros('100'));
    expect(accounts.get('withdrawals:in-flight')).toBe(toMicros(String(debits)));
  });

  it('moves money once per key, however many callers send it at once', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    const results = await Promise.all(Array.from({ length: 30 }, () => post(player, coin, '5', 'mission', 'e2:same')));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('5');
    expect(await OperationModel.countDocuments({ key: 'e2:same' })).toBe(1);
    expect(await LedgerEntryModel.countDocuments({ idempotencyKey: 'e2:same' })).toBe(1);
    // and a later retry finds it done: nothing moves, the same line is named
    const again = await post(player, coin, '5', 'mission', 'e2:same');
    expect(again).toEqual({ entryId: results[0]!.entryId, applied: false });
  });

  it('leaves nothing behind when it refuses, so the same key can land later', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    await post(player, coin, '3', 'gift', 'e3:seed');
    await expect(post(player, coin, '-4', 'stake', 'e3:stake')).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await OperationModel.countDocuments({ key: 'e3:stake' })).toBe(0);
    expect(await LedgerEntryModel.countDocuments({ idempotencyKey: 'e3:stake' })).toBe(0);
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('3');
    await post(player, coin, '1', 'gift', 'e3:top-up');
    expect((await post(player, coin, '-4', 'stake', 'e3:stake')).applied).toBe(true);
    expect(await balanceOf(player.id, coin.id)).toBe(0n);
    await expectBalancedBooks(coin._id);
  });

  it("refuses a frozen player's own operation, and not an operator's", async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    await holdPlayer(player.id, 'ACCOUNT_FROZEN', 'Checking your account');
    await expect(
      postEntry({ userId: player.id, coinId: coin.id, amount: toMicros('1'), reason: 'mining', idempotencyKey: 'e4:own', guarded: true }),
    ).rejects.toMatchObject({ code: 'ACCOUNT_FROZEN' });
    expect(await OperationModel.countDocuments({ key: 'e4:own' })).toBe(0);
    expect((await post(player, coin, '2', 'gift', 'e4:operator')).applied).toBe(true);
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('2');
  });

  it.each([
    ['after it is recorded', 'ledger:after-record'],
    ['after the balance took it', 'ledger:after-apply'],
  ])('finishes an operation a crash stopped %s, once, by the sweep alone', async (_moment, point) => {
    const key = `e5:${point}`;
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    onFault((reached) => {
      if (reached === point) throw new Error(`crash at ${reached}`);
    });
    await expect(post(player, coin, '7', 'mining', key)).rejects.toThrow('crash');
    onFault(null);
    expect(await OperationModel.countDocuments({ key, state: 'recorded' })).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('7');
    expect(await LedgerEntryModel.countDocuments({ idempotencyKey: key, state: 'posted' })).toBe(1);
    await expectBalancedBooks(coin._id);
  });

  it('posts each kind against its house account, a stake paid back split into principal and profit', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    for (const reason of ['mission', 'referral', 'streak', 'mining', 'gift'] as const)
      await post(player, coin, '10', reason, `e6:${reason}`);
    await post(player, coin, '-2', 'clawback', 'e6:clawback');
    await post(player, coin, '-20', 'stake', 'e6:stake');
    await postEntry({
      userId: player.id,
      coinId: coin.id,
      amount: toMicros('21.5'),
      reason: 'unstake',
      idempotencyKey: 'e6:unstake',
      house: [
        { account: 'stakes:held', coin: coin.id, amount: -toMicros('20') },
        { account: 'staking:profit', coin: coin.id, amount: -toMicros('1.5') },
      ],
    });
    await post(player, coin, '-8', 'withdraw', 'e6:withdraw');
    await post(player, coin, '3', 'refund', 'e6:refund');
    await moveHouseValue({
      kind: 'payout',
      key: 'e6:payout',
      refType: 'Withdrawal',
      refId: 'w',
      coinId: coin.id,
      from: 'withdrawals:in-flight',
      to: 'paid:chain',
      amount: toMicros('5'),
    });
    const accounts = await expectBalancedBooks(coin._id);
    const expected: Partial<Record<HouseAccount, string>> = {
      'rewards:mission': '-10',
      'rewards:referral': '-10',
      'rewards:streak': '-10',
      'rewards:mining': '-10',
      gifts: '-10',
      clawbacks: '2',
      'stakes:held': '0',
      'staking:profit': '-1.5',
      'withdrawals:in-flight': '0',
      'paid:chain': '5',
    };
    for (const [account, amount] of Object.entries(expected))
      expect(`${account} ${fromMicros(accounts.get(account) ?? 0n)}`).toBe(`${account} ${amount}`);
    // every reason has its house account, so a new reason cannot be filed under another's
    for (const reason of LEDGER_REASONS) expect(HOUSE_SIDE[reason]).toBeTruthy();
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('44.5');
  });

  it('gives lines written before the engine their operations, and finishes one a crash left pending, once', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    // as the ledger wrote them before the engine: a posted credit with its balance, a stake and its return, a pending line
    const line = (amount: string, reason: (typeof LEDGER_REASONS)[number], key: string, state: 'posted' | 'pending', refId = '') =>
      LedgerEntryModel.create({
        user: player._id,
        coin: coin._id,
        amount: Number(signed(amount)),
        reason,
        idempotencyKey: key,
        state,
        refType: refId ? 'Stake' : '',
        refId,
      });
    await line('10', 'mission', 'e7:mission', 'posted');
    await line('-4', 'stake', 'e7:stake', 'posted', 'stake-1');
    await line('4.4', 'unstake', 'e7:unstake', 'posted', 'stake-1');
    await BalanceModel.create({ user: player._id, coin: coin._id, amount: Number(toMicros('10.4')), appliedKeys: [] });
    await line('7', 'mining', 'e7:pending', 'pending');

    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('17.4');
    expect(await LedgerEntryModel.countDocuments({ user: player._id, operation: null })).toBe(0);
    expect(await LedgerEntryModel.countDocuments({ user: player._id, state: 'pending' })).toBe(0);
    const accounts = await expectBalancedBooks(coin._id);
    expect(fromMicros(accounts.get('staking:profit')!)).toBe('-0.4');
    expect(accounts.get('stakes:held')).toBe(0n);
  });

  it("runs a kind's follow-up steps once each, the sweep finishing those a crash cut off", async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    const ran: string[] = [];
    registerOperationKind({
      kind: 'streak',
      steps: [
        { name: 'tell', run: async (operation) => void ran.push(`tell ${operation.key}`) },
        { name: 'count', run: async (operation) => void ran.push(`count ${operation.key}`) },
      ],
    });
    try {
      let steps = 0;
      onFault((reached) => {
        if (reached === 'ledger:after-step' && ++steps === 1) throw new Error('crash after the first step');
      });
      const input = streakReward('streak', 'e8:streak', player, coin, '2');
      await expect(runOperation(input)).rejects.toThrow('crash');
      onFault(null);
      expect(await OperationModel.findOne({ key: 'e8:streak' }).lean()).toMatchObject({ state: 'posted', steps: ['tell'] });
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(ran).toEqual(['tell e8:streak', 'count e8:streak']);
      expect(await OperationModel.findOne({ key: 'e8:streak' }).lean()).toMatchObject({ state: 'done', steps: ['tell', 'count'] });
      // a retry finds it done: no step runs again, nothing moves
      expect((await runOperation(input)).applied).toBe(false);
      expect(ran).toHaveLength(2);
      expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('2');
    } finally {
      registerOperationKind({ kind: 'streak', steps: [] });
    }
  });

  it('refuses to record or finish a kind this process did not register, rather than finish it without its steps', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    const input = streakReward('e11-unknown', 'e11:unknown', player, coin, '1');
    await expect(runOperation(input)).rejects.toThrow('the money kind e11-unknown is not registered in this process');
    expect(await OperationModel.countDocuments({ key: 'e11:unknown' })).toBe(0);

    // one recorded by a process that knew the kind, then swept by one that does not: the sweep fails, the operation waits
    registerOperationKind({ kind: 'e11-unknown', steps: [{ name: 'tell', run: () => Promise.resolve() }] });
    onFault((reached) => {
      if (reached === 'ledger:after-record') throw new Error('crash after recording');
    });
    await expect(runOperation(input)).rejects.toThrow('crash');
    onFault(null);
    unregisterForTest('e11-unknown');
    await expect(recoverPendingEntries(0)).rejects.toThrow('the money kind e11-unknown is not registered');
    expect(await OperationModel.findOne({ key: 'e11:unknown' }).lean()).toMatchObject({ state: 'recorded', steps: [] });
    expect(await balanceOf(player.id, coin.id)).toBe(0n);
    // a plain ledger reason needs no registration
    await post(player, coin, '1', 'gift', 'e11:gift');
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('1');
    // the operation is finished, steps and all, once a process that knows the kind sweeps
    registerOperationKind({ kind: 'e11-unknown', steps: [{ name: 'tell', run: () => Promise.resolve() }] });
    expect(await recoverPendingEntries(0)).toBeGreaterThanOrEqual(1);
    expect(await OperationModel.findOne({ key: 'e11:unknown' }).lean()).toMatchObject({ state: 'done', steps: ['tell'] });
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('2');
  });

  it("lets the call that recorded an operation with steps mark it posted and done with its steps' own records", async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    registerOperationKind({
      kind: 'e10-steps',
      steps: [
        { name: 'first', run: () => Promise.resolve() },
        { name: 'second', run: () => Promise.resolve() },
      ],
    });
    const marks = jest.spyOn(OperationModel, 'findOneAndUpdate');
    const records = jest.spyOn(OperationModel, 'updateOne');
    try {
      await runOperation(streakReward('e10-steps', 'e10:steps', player, coin, '1'));
      // the record alone, then one write per step: no posted mark and no done mark of their own
      expect(marks).toHaveBeenCalledTimes(1);
      expect(records).toHaveBeenCalledTimes(2);
      expect(await OperationModel.findOne({ key: 'e10:steps' }).lean()).toMatchObject({
        state: 'done',
        steps: ['first', 'second'],
        postedAt: expect.any(Date),
        doneAt: expect.any(Date),
      });
    } finally {
      marks.mockRestore();
      records.mockRestore();
      registerOperationKind({ kind: 'e10-steps', steps: [] });
    }
  });

  it("checks a kind's admit before anything moves: a refusal leaves nothing, a hold after it keeps the operation owed", async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    const taken = new Set<string>();
    const admitted: string[] = [];
    let crashAfterAdmitting = false;
    registerOperationKind({
      kind: 'e9-decision',
      // the kind's own effect, once per thing decided: a second operation for the same thing is refused
      admit: async (operation) => {
        const thing = (operation.data as { thing: string }).thing;
        if (taken.has(thing) && !admitted.includes(operation.key)) return new AppError('WITHDRAWAL_PROCESSED');
        taken.add(thing);
        if (!admitted.includes(operation.key)) admitted.push(operation.key);
        if (crashAfterAdmitting) {
          crashAfterAdmitting = false;
          throw new Error('crash after admitting');
        }
        return null;
      },
      steps: [],
    });
    const decision = (key: string, thing: string) => ({
      kind: 'e9-decision',
      key,
      players: [{ user: player.id, coin: coin.id, amount: toMicros('3'), reason: 'refund' as const }],
      house: [{ account: 'withdrawals:in-flight' as const, coin: coin.id, amount: -toMicros('3') }],
      data: { thing },
      guarded: true,
    });
    try {
      await runOperation(decision('e9:first', 'w1'));
      // another operation deciding the same thing: refused, removed, nothing moved
      await expect(runOperation(decision('e9:second', 'w1'))).rejects.toMatchObject({ code: 'WITHDRAWAL_PROCESSED' });
      expect(await OperationModel.exists({ key: 'e9:second' })).toBeNull();
      // admitted, then the player is held before it is applied (a crash in between): it stays, owed, and lands once released
      onFault((reached) => {
        if (reached === 'ledger:after-record') throw new Error('crash after recording');
      });
      await expect(runOperation(decision('e9:third', 'w2'))).rejects.toThrow('crash');
      onFault(null);
      await expect(runOperation(decision('e9:third', 'w2'))).resolves.toMatchObject({ applied: true });
      crashAfterAdmitting = true;
      await expect(runOperation(decision('e9:fourth', 'w3'))).rejects.toThrow('crash after admitting');
      expect(admitted).toContain('e9:fourth');
      await holdPlayer(player.id, 'ACCOUNT_FROZEN', 'checks');
      // admitted (the thing is decided), then held: the sweep keeps it owed rather than removing it, marked held, so a freeze
      // waiting for the player's operations in flight does not wait for it
      await recoverPendingEntries(0);
      expect(await OperationModel.findOne({ key: 'e9:fourth' }).lean()).toMatchObject({ state: 'recorded', held: true });
      expect(await guardedEntriesInFlight(player.id, new Date())).toBe(0);
      await releasePlayer(player.id);
      await recoverPendingEntries(0);
      expect(await OperationModel.findOne({ key: 'e9:fourth' }).lean()).toMatchObject({ state: 'done' });
      expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('9');
      await expectBalancedBooks(coin._id);
    } finally {
      onFault(null);
      registerOperationKind({ kind: 'e9-decision', steps: [] });
    }
  });

  it('reaches the point after recording as a recording caller comes to finish, after what it wrote between', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    const written: string[] = [];
    onFault((reached) => {
      if (reached === 'ledger:after-record') throw new Error(`crash once ${written.join(', ') || 'nothing'} was written`);
    });
    const finishIt = await recordOperation(streakReward('streak', 'e12:between', player, coin, '3'));
    written.push('the record its admit reads');
    await expect(finishIt()).rejects.toThrow('crash once the record its admit reads was written');
    onFault(null);
    expect(await OperationModel.findOne({ key: 'e12:between' }).lean()).toMatchObject({ state: 'recorded' });
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(fromMicros(await balanceOf(player.id, coin.id))).toBe('3');
  });

  it('records a change with no postings: its admit takes the decision, its steps apply it, the sweep finishes either', async () => {
    // a record changed by a second operator's decision: one decision stands, applied and audited once each
    const record = { decidedBy: '', applied: 0, audited: 0 };
    let admits = 0;
    const decide = (key: string, by: string) => ({ kind: 'e13-decision', key, players: [], house: [], data: { by } });
    registerOperationKind({
      kind: 'e13-decision',
      admit: async (operation) => {
        admits++;
        const { by } = operation.data as { by: string };
        if (!record.decidedBy) record.decidedBy = by;
        return record.decidedBy === by ? null : new AppError('CHANGE_DECIDED');
      },
      steps: [
        { name: 'apply', run: async () => void record.applied++ },
        { name: 'audit', run: async () => void record.audited++ },
      ],
    });
    registerOperationKind({ kind: 'e13-admit-only', admit: async () => ((admits += 100), null), steps: [] });
    try {
      // killed before its admit: the sweep decides it, then applies and audits
      onFault((reached) => {
        if (reached === 'ledger:after-record') throw new Error('crash after recording');
      });
      await expect(runOperation(decide('e13:first', 'ana'))).rejects.toThrow('crash');
      expect(record).toEqual({ decidedBy: '', applied: 0, audited: 0 });
      // an admit with no steps and no postings is no proof of itself: the sweep runs it rather than marking it done
      await expect(runOperation({ kind: 'e13-admit-only', key: 'e13:admit-only', players: [], house: [] })).rejects.toThrow('crash');
      onFault(null);
      // the sweep of one kind leaves the others
      expect(await finishInterrupted(0, ['e13-admit-only'])).toBe(1);
      expect(admits).toBe(100);
      expect(await OperationModel.findOne({ key: 'e13:first' }).lean()).toMatchObject({ state: 'recorded' });
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(record).toEqual({ decidedBy: 'ana', applied: 1, audited: 1 });
      expect(await OperationModel.findOne({ key: 'e13:first' }).lean()).toMatchObject({
        state: 'done',
        postings: [],
        steps: ['apply', 'audit'],
      });
      // a second decision is refused and leaves nothing; the same one again changes nothing
      await expect(runOperation(decide('e13:second', 'ben'))).rejects.toMatchObject({ code: 'CHANGE_DECIDED' });
      expect(await OperationModel.exists({ key: 'e13:second' })).toBeNull();
      await expect(runOperation(decide('e13:first', 'ana'))).resolves.toMatchObject({ applied: false, recorded: false });
      // killed once its admit decided (no postings: the point after applying is after the admit): the sweep runs the steps
      record.decidedBy = '';
      onFault((reached, kind) => {
        if (reached === 'ledger:after-apply' && kind === 'e13-decision') throw new Error('crash after deciding');
      });
      await expect(runOperation(decide('e13:fourth', 'dan'))).rejects.toThrow('crash');
      onFault(null);
      expect(record).toEqual({ decidedBy: 'dan', applied: 1, audited: 1 });
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(record).toEqual({ decidedBy: 'dan', applied: 2, audited: 2 });
      // killed between applying and auditing: the sweep audits it, once
      record.decidedBy = '';
      onFault((reached) => {
        if (reached === 'ledger:after-step') throw new Error('crash after a step');
      });
      await expect(runOperation(decide('e13:third', 'cyd'))).rejects.toThrow('crash');
      onFault(null);
      expect(record).toMatchObject({ applied: 3, audited: 2 });
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(record).toEqual({ decidedBy: 'cyd', applied: 3, audited: 3 });
    } finally {
      onFault(null);
      unregisterForTest('e13-decision');
      unregisterForTest('e13-admit-only');
    }
  });

  it("lets a step wait for the world: not recorded, run again by the next finish, the steps' points naming each step", async () => {
    let landed = false;
    const ran: string[] = [];
    registerOperationKind({
      kind: 'e14-wait',
      steps: [
        { name: 'send', run: async () => void ran.push('send') },
        { name: 'confirm', run: async () => (ran.push('confirm'), landed ? undefined : 'wait') },
        { name: 'close', run: async () => void ran.push('close') },
      ],
    });
    const reached: string[] = [];
    onFault((point, kind, step) => {
      if (kind === 'e14-wait') reached.push([point, step].join(' '));
    });
    try {
      const result = await runOperation({ kind: 'e14-wait', key: 'e14:batch', players: [], house: [] });
      expect(result).toMatchObject({ recorded: true, waiting: true });
      expect(await OperationModel.findOne({ key: 'e14:batch' }).lean()).toMatchObject({ state: 'posted', steps: ['send'] });
      // the sweep runs the waiting step again, and does not count it finished while it waits
      expect(await finishInterrupted(0)).toBe(0);
      expect(ran).toEqual(['send', 'confirm', 'confirm']);
      landed = true;
      expect(await finishInterrupted(0)).toBe(1);
      expect(ran).toEqual(['send', 'confirm', 'confirm', 'confirm', 'close']);
      expect(await OperationModel.findOne({ key: 'e14:batch' }).lean()).toMatchObject({
        state: 'done',
        steps: ['send', 'confirm', 'close'],
      });
      expect(reached).toEqual(['ledger:after-record ', 'ledger:after-step send', 'ledger:after-step confirm', 'ledger:after-step close']);
    } finally {
      onFault(null);
      unregisterForTest('e14-wait');
    }
  });
});
