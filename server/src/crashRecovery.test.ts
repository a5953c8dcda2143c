import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import mongoose, { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { onFault, type FaultPoint } from './lib/faults';
import { createCoin, createPlayer, fund, playerCaller } from '../test/factories';
import { expectLedgerMatchesBalances } from '../test/ledgerInvariant';
import { AccountModel } from './modules/accounts/account.model';
import { AuditEntryModel } from './modules/audit/audit.model';
import { AppConfigModel } from './modules/config/appConfig.model';
import { CategoryModel } from './modules/content/content.models';
import { BalanceModel, LedgerEntryModel } from './modules/ledger/ledger.models';
import { OperationModel } from './modules/ledger/operation.model';
import { balanceOf, postEntry, recoverPendingEntries, releasePostedKeys } from './modules/ledger/ledger.service';
import { MiningSessionModel } from './modules/mining/miningSession.model';
import { MissionModel, UserMissionModel } from './modules/missions/mission.models';
import { NotificationModel } from './modules/notifications/notification.model';
import { RateLimitCounterModel } from './modules/rateLimits/rateLimit.model';
import { StakeModel, StakingCoinModel } from './modules/staking/staking.models';
import { adjustBalance } from './modules/gifts/balanceAdjustment.service';
import { setPlayerStatus } from './modules/users/playerStatus.service';
import { UserModel } from './modules/users/user.model';
import { upsertFromTelegram } from './modules/users/users.service';
import { countInvite } from './modules/users/players.service';
import { recordJoin } from './modules/referrals/referrals.kinds';
import { WalletLinkModel } from './modules/wallet/wallet.models';
import { WithdrawalModel } from './modules/withdrawals/withdrawal.model';
import { processWithdrawal } from './modules/withdrawals/withdrawals.service';
import { runJobsOnce } from './jobs';

/**
 * Every money operation killed between two of its writes, at each of its fault points, then finished by the
 * money recovery job (server/src/jobs.ts): the state a `kill -9` leaves is the state a thrown error at the same point leaves, since no
 * later write of the operation runs. The crash test (`npm run crash-test`) does the same with real kills.
 */
class SimulatedCrash extends Error {}

/** Runs `operation` with the process "killed" at `point`; fails if the point was never reached. */
async function crashAt(point: FaultPoint, operation: () => Promise<unknown>) {
  let reached = false;
  onFault((at) => {
    if (at !== point) return;
    reached = true;
    throw new SimulatedCrash(point);
  });
  let thrown: unknown;
  try {
    await operation();
  } catch (error) {
    thrown = error;
  } finally {
    onFault(null);
  }
  expect(reached).toBe(true);
  // tRPC wraps what a procedure throws
  expect(thrown instanceof SimulatedCrash || (thrown as { cause?: unknown } | undefined)?.cause instanceof SimulatedCrash).toBe(true);
}

const tap = () => `tap-${randomBytes(6).toString('hex')}`;

async function linkWallet(userId: Types.ObjectId) {
  const raw = `0:${randomBytes(32).toString('hex')}`;
  await WalletLinkModel.create({ address: raw, user: userId, network: '-239' });
  return Address.parse(raw).toString({ bounceable: false });
}

async function fundedPlayer(amount: string) {
  const [player, coin] = await Promise.all([createPlayer(), createCoin({ minWithdraw: '1' })]);
  await fund(player._id, coin._id, amount);
  return { player, coin };
}

afterEach(() => onFault(null));

describe('the ledger across a crash', () => {
  it('applies an entry once when more than 64 other changes reach the balance before recovery', async () => {
    const { player, coin } = await fundedPlayer('100');
    await crashAt('ledger:after-apply', () =>
      postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('7'), reason: 'gift', idempotencyKey: 'crashed-credit' }),
    );
    // applied, not yet marked posted
    expect(await balanceOf(player._id, coin._id)).toBe(toMicros('107'));
    for (let i = 0; i < 70; i++)
      await postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('1'), reason: 'gift', idempotencyKey: `other-${i}` });

    expect(await recoverPendingEntries(0)).toBe(1);
    // the player's own retry finds it posted, however late it comes
    expect(
      await postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('7'), reason: 'gift', idempotencyKey: 'crashed-credit' }),
    ).toMatchObject({
      applied: false,
    });
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('177'));
  });

  it('takes a debit once across a crash, 100 other changes and a retry', async () => {
    const { player, coin } = await fundedPlayer('50');
    await crashAt('ledger:after-apply', () =>
      postEntry({ userId: player._id, coinId: coin._id, amount: -toMicros('20'), reason: 'gift', idempotencyKey: 'crashed-debit' }),
    );
    for (let i = 0; i < 100; i++)
      await postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('1'), reason: 'gift', idempotencyKey: `d-${i}` });
    await postEntry({ userId: player._id, coinId: coin._id, amount: -toMicros('20'), reason: 'gift', idempotencyKey: 'crashed-debit' });
    await recoverPendingEntries(0);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('130'));
  });

  it('forgets a key only once its entry has been posted for a while, never while it is pending', async () => {
    const { player, coin } = await fundedPlayer('10');
    await crashAt('ledger:after-apply', () =>
      postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('1'), reason: 'gift', idempotencyKey: 'held-key' }),
    );
    const later = new Date(Date.now() + 3_600_000);
    await releasePostedKeys(later);
    const keys = async () => (await BalanceModel.findOne({ user: player._id, coin: coin._id }).select('+appliedKeys').lean())!.appliedKeys;
    expect(await keys()).toContain('held-key');
    await recoverPendingEntries(0);
    // just posted: kept for a stalled caller that read it pending a moment before
    await releasePostedKeys(new Date());
    expect(await keys()).toContain('held-key');
    await releasePostedKeys(later);
    expect(await keys()).toEqual([]);
  });

  it('refuses a credit that would take a balance past 2^53 - 1 micro-units, and leaves nothing', async () => {
    const { player, coin } = await fundedPlayer('9000000000');
    await expect(
      postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('9000000'), reason: 'gift', idempotencyKey: 'too-much' }),
    ).rejects.toMatchObject({ code: 'BALANCE_LIMIT' });
    expect(await LedgerEntryModel.exists({ idempotencyKey: 'too-much' })).toBeNull();
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('9000000000'));
  });
});

describe('a debit refused while a concurrent caller with the same key applies it', () => {
  /** A promise and the function that settles it. */
  function signal() {
    let fire!: () => void;
    const fired = new Promise<void>((resolve) => (fire = resolve));
    return { fire, fired };
  }

  it('ends with one posted entry when the refusal removes the entry after the other caller applied it', async () => {
    const { player, coin } = await fundedPlayer('5');
    const debit = () =>
      postEntry({ userId: player._id, coinId: coin._id, amount: -toMicros('10'), reason: 'gift', idempotencyKey: 'raced-debit' });
    const [otherApplied, refusalDone] = [signal(), signal()];
    let other: Promise<unknown> | undefined;
    onFault(async (point) => {
      if (point === 'ledger:refusing' && !other) {
        // the balance is topped up, and a second caller with the same key applies the debit and stops before marking it
        await postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('100'), reason: 'gift', idempotencyKey: 'top-up' });
        other = debit();
        await otherApplied.fired;
      } else if (point === 'ledger:after-apply' && other) {
        otherApplied.fire();
        await refusalDone.fired;
      } else if (point === 'ledger:refused') refusalDone.fire();
    });
    // the first caller found the balance short, but the debit stands: it is told so, not refused
    expect(await debit()).toMatchObject({ applied: false });
    expect(await other).toMatchObject({ applied: true });
    expect(await LedgerEntryModel.find({ idempotencyKey: 'raced-debit' }).lean()).toEqual([expect.objectContaining({ state: 'posted' })]);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('95'));
  });

  it('keeps a stake the other tap paid for while the first tap found the balance short', async () => {
    const { coin, offer } = await stakingOffer();
    const player = await createPlayer();
    await fund(player._id, coin._id, '50');
    const input = { stakingCoinId: String(offer._id), amount: '100', duration: 'week', idempotencyKey: tap() };
    let second: Promise<unknown> | undefined;
    // the first tap's debit is refused; just before its operation is removed the player is topped up and taps again
    onFault(async (point) => {
      if (point !== 'ledger:refusing' || second) return;
      await postEntry({ userId: player._id, coinId: coin._id, amount: toMicros('100'), reason: 'gift', idempotencyKey: 'top-up-stake' });
      second = playerCaller(player).staking.stake(input);
      await second;
    });
    const first = await playerCaller(player).staking.stake(input);
    expect(first).toMatchObject({ amount: '100' });
    expect(await second).toMatchObject({ id: first.id });
    expect(await StakeModel.find({ user: player._id }).lean()).toEqual([expect.objectContaining({ amount: Number(toMicros('100')) })]);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('50'));
  });
});

describe('withdrawals across a crash', () => {
  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'a request killed at %s is taken once and written by the money recovery',
    async (point) => {
      const { player, coin } = await fundedPlayer('100');
      await linkWallet(player._id);
      const idempotencyKey = tap();
      await crashAt(point, () => playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount: '30', idempotencyKey }));
      await runJobsOnce(0);
      expect(await WithdrawalModel.find({ user: player._id }).lean()).toEqual([
        expect.objectContaining({ status: 'pending', amount: Number(toMicros('30')) }),
      ]);
      // the player's retry gives the same withdrawal, taken once
      const retried = await playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount: '30', idempotencyKey });
      expect(await WithdrawalModel.countDocuments({ user: player._id })).toBe(1);
      expect(retried.status).toBe('pending');
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('70'));
    },
  );

  it('a request killed before its amount was taken is undone when the balance no longer covers it', async () => {
    const { player, coin } = await fundedPlayer('100');
    await linkWallet(player._id);
    await crashAt('ledger:after-record', () =>
      playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount: '80', idempotencyKey: tap() }),
    );
    await postEntry({ userId: player._id, coinId: coin._id, amount: -toMicros('50'), reason: 'gift', idempotencyKey: 'spent-meanwhile' });
    await runJobsOnce(0);
    expect(await WithdrawalModel.countDocuments({ user: player._id })).toBe(0);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('50'));
  });

  it('finishes the requests an older version left untaken, once', async () => {
    const [covered, short] = await Promise.all([fundedPlayer('100'), fundedPlayer('10')]);
    const untaken = ({ player, coin }: { player: { _id: Types.ObjectId }; coin: { _id: Types.ObjectId } }) => ({
      user: player._id,
      coin: coin._id,
      amount: Number(toMicros('40')),
      address: `0:${'c'.repeat(64)}`,
      status: 'pending',
      idempotencyKey: `${String(player._id)}:old`,
      amountTaken: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await WithdrawalModel.collection.insertMany([untaken(covered), untaken(short)]);
    await mongoose.connection.collection('migrations').deleteMany({});
    await runJobsOnce(0);
    await runJobsOnce(0);
    expect(await WithdrawalModel.collection.find({ user: covered.player._id }).toArray()).toEqual([
      expect.not.objectContaining({ amountTaken: expect.anything() }),
    ]);
    expect(await WithdrawalModel.countDocuments({ user: short.player._id })).toBe(0);
    expect((await expectLedgerMatchesBalances(covered.player._id)).get(String(covered.coin._id))).toBe(toMicros('60'));
    expect((await expectLedgerMatchesBalances(short.player._id)).get(String(short.coin._id))).toBe(toMicros('10'));
  });

  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'a rejection killed at %s is refunded once, and the player told once, by the money recovery',
    async (point) => {
      const { player, coin } = await fundedPlayer('100');
      await UserModel.updateOne({ _id: player._id }, { $set: { messagePermission: true } });
      await linkWallet(player._id);
      const requested = await playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount: '40', idempotencyKey: tap() });
      const operator = await AccountModel.create({
        username: `ops-${randomBytes(3).toString('hex')}`,
        passwordHash: 'x',
        permissions: ['*'],
      });
      const decide = (review: { status: 'rejected'; rejectReason: string } | { status: 'done'; txHash: string }) =>
        processWithdrawal({ withdrawalId: requested.id, review, accountId: operator._id, now: new Date() });
      await crashAt(point, () => decide({ status: 'rejected', rejectReason: 'Wrong address' }));
      await runJobsOnce(0);
      // a second click afterwards, or another decision, changes nothing
      await expect(decide({ status: 'rejected', rejectReason: 'Wrong address' })).rejects.toMatchObject({ code: 'WITHDRAWAL_PROCESSED' });
      await expect(decide({ status: 'done', txHash: 'a'.repeat(64) })).rejects.toMatchObject({ code: 'WITHDRAWAL_PROCESSED' });
      expect(await WithdrawalModel.findById(requested.id).lean()).toMatchObject({ status: 'rejected', rejectReason: 'Wrong address' });
      expect(await LedgerEntryModel.countDocuments({ refId: requested.id, reason: 'refund' })).toBe(1);
      expect(await NotificationModel.countDocuments({ user: player._id, event: 'withdrawal-rejected' })).toBe(1);
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('100'));
    },
  );

  it('a rejection and a payment by hand at once: one decision stands, and the other moves nothing', async () => {
    const { player, coin } = await fundedPlayer('100');
    await linkWallet(player._id);
    const requested = await playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount: '40', idempotencyKey: tap() });
    const operator = await AccountModel.create({
      username: `ops-${randomBytes(3).toString('hex')}`,
      passwordHash: 'x',
      permissions: ['*'],
    });
    const outcomes = await Promise.allSettled([
      processWithdrawal({
        withdrawalId: requested.id,
        review: { status: 'rejected', rejectReason: 'No' },
        accountId: operator._id,
        now: new Date(),
      }),
      processWithdrawal({
        withdrawalId: requested.id,
        review: { status: 'done', txHash: 'b'.repeat(64) },
        accountId: operator._id,
        now: new Date(),
      }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const decided = (await WithdrawalModel.findById(requested.id).lean())!;
    const refunds = await LedgerEntryModel.countDocuments({ refId: requested.id, reason: 'refund' });
    expect(decided.status === 'rejected' ? refunds : 1 - refunds).toBe(1);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(
      toMicros(decided.status === 'rejected' ? '100' : '60'),
    );
  });

  it('finishes the decisions an older version left unsettled, once', async () => {
    const { player, coin } = await fundedPlayer('100');
    await UserModel.updateOne({ _id: player._id }, { $set: { messagePermission: true } });
    await linkWallet(player._id);
    const requested = await playerCaller(player).withdrawals.request({ coinId: String(coin._id), amount: '40', idempotencyKey: tap() });
    // as the older version left it: rejected, not yet refunded nor told
    await WithdrawalModel.collection.updateOne(
      { _id: new Types.ObjectId(requested.id) },
      { $set: { status: 'rejected', rejectReason: 'Old', processedAt: new Date(), settled: false } },
    );
    await mongoose.connection.collection('migrations').deleteMany({});
    await runJobsOnce(0);
    await runJobsOnce(0);
    expect(await WithdrawalModel.collection.findOne({ _id: new Types.ObjectId(requested.id) })).not.toHaveProperty('settled');
    expect(await LedgerEntryModel.countDocuments({ refId: requested.id, reason: 'refund' })).toBe(1);
    expect(await NotificationModel.countDocuments({ user: player._id, event: 'withdrawal-rejected' })).toBe(1);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('100'));
  });
});

async function stakingOffer() {
  const coin = await createCoin();
  const offer = new StakingCoinModel();
  offer.set({ coin: coin._id, minAmount: '10', maxAmount: '1000', profits: { week: '10' } });
  return { coin, offer: await offer.save() };
}

describe('stakes across a crash', () => {
  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'a stake killed at %s is debited and opened once by the money recovery',
    async (point) => {
      const { coin, offer } = await stakingOffer();
      const player = await createPlayer();
      await fund(player._id, coin._id, '500');
      const idempotencyKey = tap();
      await crashAt(point, () =>
        playerCaller(player).staking.stake({ stakingCoinId: String(offer._id), amount: '120', duration: 'week', idempotencyKey }),
      );
      await runJobsOnce(0);
      expect(await StakeModel.find({ user: player._id }).lean()).toEqual([expect.objectContaining({ amount: Number(toMicros('120')) })]);
      // its unlock reminder was queued once
      expect(await NotificationModel.countDocuments({ user: player._id, event: 'stake-unlocked' })).toBe(1);
      // the player's retry gives the same stake, debited once
      const retried = await playerCaller(player).staking.stake({
        stakingCoinId: String(offer._id),
        amount: '120',
        duration: 'week',
        idempotencyKey,
      });
      expect(await StakeModel.countDocuments({ user: player._id })).toBe(1);
      expect(retried.amount).toBe('120');
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('380'));
    },
  );

  it('a stake killed before its debit is undone when the balance no longer covers it', async () => {
    const { coin, offer } = await stakingOffer();
    const player = await createPlayer();
    await fund(player._id, coin._id, '100');
    await crashAt('ledger:after-record', () =>
      playerCaller(player).staking.stake({ stakingCoinId: String(offer._id), amount: '90', duration: 'week', idempotencyKey: tap() }),
    );
    await postEntry({ userId: player._id, coinId: coin._id, amount: -toMicros('50'), reason: 'gift', idempotencyKey: 'spent-first' });
    await runJobsOnce(0);
    expect(await StakeModel.countDocuments({ user: player._id })).toBe(0);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('50'));
  });

  it('refuses the same key with other terms, and the stake keeps exactly what was debited', async () => {
    const { coin, offer } = await stakingOffer();
    const player = await createPlayer();
    await fund(player._id, coin._id, '500');
    const idempotencyKey = tap();
    await crashAt('ledger:after-record', () =>
      playerCaller(player).staking.stake({ stakingCoinId: String(offer._id), amount: '100', duration: 'week', idempotencyKey }),
    );
    await expect(
      playerCaller(player).staking.stake({ stakingCoinId: String(offer._id), amount: '400', duration: 'week', idempotencyKey }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await runJobsOnce(0);
    expect(await StakeModel.find({ user: player._id }).lean()).toEqual([expect.objectContaining({ amount: Number(toMicros('100')) })]);
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('400'));
  });

  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'a claim killed at %s pays principal and profit once and marks the stake claimed',
    async (point) => {
      const { coin, offer } = await stakingOffer();
      const player = await createPlayer();
      await fund(player._id, coin._id, '100');
      const start = new Date('2026-01-01T00:00:00Z');
      const staked = await playerCaller(player, { now: () => start }).staking.stake({
        stakingCoinId: String(offer._id),
        amount: '100',
        duration: 'week',
        idempotencyKey: tap(),
      });
      const later = playerCaller(player, { now: () => new Date(start.getTime() + 8 * 86_400_000) });
      await crashAt(point, () => later.staking.claim({ stakeId: staked.id }));
      await runJobsOnce(0);
      await expect(later.staking.claim({ stakeId: staked.id })).rejects.toMatchObject({ message: 'This stake has already been claimed' });
      expect((await StakeModel.findById(staked.id).lean())?.claimedAt).toEqual(new Date(start.getTime() + 8 * 86_400_000));
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('110'));
    },
  );

  it('finishes the stakes an older version left opening or claimed unpaid, once', async () => {
    const { coin, offer } = await stakingOffer();
    const [covered, short, claimed] = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
    await Promise.all([fund(covered._id, coin._id, '100'), fund(short._id, coin._id, '10'), fund(claimed._id, coin._id, '100')]);
    const start = new Date('2026-01-01T00:00:00Z');
    const paidFor = await playerCaller(claimed, { now: () => start }).staking.stake({
      stakingCoinId: String(offer._id),
      amount: '100',
      duration: 'week',
      idempotencyKey: tap(),
    });
    // as the older version left them: recorded 'opening' with nothing debited, or claimed with paidOut false and nothing paid
    const opening = (player: { _id: Types.ObjectId }, key: string) => ({
      user: player._id,
      stakingCoin: offer._id,
      coin: coin._id,
      amount: Number(toMicros('60')),
      duration: 'week',
      profitPercent: '10',
      profit: Number(toMicros('6')),
      startedAt: start,
      unlocksAt: new Date(start.getTime() + 7 * 86_400_000),
      claimedAt: null,
      idempotencyKey: `${String(player._id)}:${key}`,
      state: 'opening',
      createdAt: start,
      updatedAt: start,
    });
    await StakeModel.collection.insertMany([opening(covered, 'old-1'), opening(short, 'old-2')]);
    await StakeModel.collection.updateOne({ _id: new Types.ObjectId(paidFor.id) }, { $set: { claimedAt: start, paidOut: false } });
    // the first start of this version on that database (the earlier tests' passes found none and finished the migration)
    await mongoose.connection.collection('migrations').deleteMany({});
    await runJobsOnce(0);
    await runJobsOnce(0);
    expect(await StakeModel.collection.find({ user: covered._id }).toArray()).toEqual([
      expect.not.objectContaining({ state: expect.anything() }),
    ]);
    expect(await StakeModel.countDocuments({ user: short._id })).toBe(0);
    expect(await StakeModel.collection.findOne({ user: claimed._id })).not.toHaveProperty('paidOut');
    expect((await expectLedgerMatchesBalances(covered._id)).get(String(coin._id))).toBe(toMicros('40'));
    expect((await expectLedgerMatchesBalances(short._id)).get(String(coin._id))).toBe(toMicros('10'));
    expect((await expectLedgerMatchesBalances(claimed._id)).get(String(coin._id))).toBe(toMicros('110'));
  });
});

describe('missions, mining and referrals across a crash', () => {
  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'a claim killed at %s is credited and counted once',
    async (point) => {
      const coin = await createCoin();
      const category = await CategoryModel.create({ title: 'Crash' });
      const mission = new MissionModel();
      mission.set({ category: category._id, coin: coin._id, title: 'Visit', reward: '3', verifyType: 'auto', link: 'https://example.com' });
      await mission.save();
      const player = await createPlayer();
      await crashAt(point, () => playerCaller(player).missions.claim({ missionId: String(mission._id) }));
      // the player's retry finishes it (as the money recovery would); the recovery after it finds nothing left
      await expect(playerCaller(player).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({
        message: 'Already done',
      });
      expect(await LedgerEntryModel.countDocuments({ user: player._id, state: 'posted' })).toBe(1);
      expect((await runJobsOnce(0)).pendingEntries).toBe(0);
      expect(await UserMissionModel.findOne({ user: player._id }).lean()).toMatchObject({ status: 'done' });
      expect((await UserModel.findById(player._id).lean())!.doneMissionsCount).toBe(1);
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('3'));
    },
  );

  const finishedSession = async (player: { _id: Types.ObjectId }, coin: { _id: Types.ObjectId }, extra: Record<string, unknown> = {}) => {
    const endsAt = new Date(Date.now() - 60_000);
    const fields = { user: player._id, coin: coin._id, amount: Number(toMicros('8')), startedAt: new Date(endsAt.getTime() - 3_600_000) };
    return (await MiningSessionModel.collection.insertOne({ ...fields, endsAt, movedAt: null, slot: null, ...extra })).insertedId;
  };

  it.each(['ledger:after-record', 'ledger:after-apply'] as const)(
    'a move killed at %s credits the session once, finished by the sweep alone',
    async (point) => {
      const coin = await createCoin();
      const player = await createPlayer();
      await finishedSession(player, coin);
      await crashAt(point, () => playerCaller(player).mining.move());
      await runJobsOnce(0);
      await expect(playerCaller(player).mining.move()).rejects.toMatchObject({ message: 'Nothing to move' });
      expect(await MiningSessionModel.findOne({ user: player._id }).lean()).toMatchObject({ movedAt: expect.any(Date) });
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('8'));
    },
  );

  it("finishes the moves an older version left uncredited, once, and keeps a frozen player's owed until they are active", async () => {
    const coin = await createCoin();
    const [player, frozen] = await Promise.all([createPlayer(), createPlayer()]);
    const movedAt = new Date(Date.now() - 120_000);
    // as the older version left them: marked moved with the credit owed, nothing credited (the frozen one's credit refused)
    const owed = await finishedSession(player, coin, { movedAt, awaitingCredit: true });
    const held = await finishedSession(frozen, coin, { movedAt, awaitingCredit: true });
    await setPlayerStatus(frozen._id, { status: 'frozen', statusReason: 'Shared wallet' }, new Date());
    // and the older version's own credit of the frozen one, recorded under the reason's kind when the process died
    await crashAt('ledger:after-record', () =>
      postEntry({
        userId: frozen._id,
        coinId: coin._id,
        amount: toMicros('8'),
        reason: 'mining',
        refType: 'MiningSession',
        refId: String(held),
        idempotencyKey: `mining:${String(held)}`,
        guarded: true,
      }),
    );
    // the first start of this version on that database (the earlier tests' passes found none and finished the migration)
    await mongoose.connection.collection('migrations').deleteMany({ name: 'mining-owed-credits' });
    await runJobsOnce(0);
    await runJobsOnce(0);
    for (const id of [owed, held]) expect(await MiningSessionModel.collection.findOne({ _id: id })).not.toHaveProperty('awaitingCredit');
    expect(await MiningSessionModel.findById(owed).lean()).toMatchObject({ movedAt });
    expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('8'));
    expect(await LedgerEntryModel.findOne({ idempotencyKey: `mining:${String(owed)}` }).lean()).toMatchObject({ state: 'posted' });
    // the frozen player's move is owed as an operation: nothing credited while frozen, paid once, when active
    expect(await balanceOf(frozen._id, coin._id)).toBe(0n);
    await setPlayerStatus(frozen._id, { status: 'active' }, new Date());
    await runJobsOnce(0);
    await runJobsOnce(0);
    expect((await expectLedgerMatchesBalances(frozen._id)).get(String(coin._id))).toBe(toMicros('8'));
  });

  /** App Config paying 5 of a new coin per friend, a referrer with a code, and a newcomer's launch with it. */
  async function referralWorld() {
    const coin = await createCoin();
    await AppConfigModel.updateOne(
      { key: 'app' },
      { $set: { referrerCoin: coin._id, referrerCoinAmount: Number(toMicros('5')), referralQualification: {} } },
      { upsert: true },
    );
    const referrer = await createPlayer({ referralCode: `ref${randomBytes(4).toString('hex')}`, inviteLimit: 10 });
    const telegramId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
    const launch = {
      user: { id: telegramId, first_name: 'Friend' },
      auth_date: Math.floor(Date.now() / 1000),
      start_param: referrer.referralCode,
    };
    /** The referrer was credited once and counted the friend once; the friend is rewarded; one operation, done. */
    const expectRewardedOnce = async () => {
      const friend = (await UserModel.findOne({ telegramId }).lean())!;
      expect(friend).toMatchObject({ referrer: referrer._id, referralState: 'rewarded' });
      expect(await UserModel.findById(referrer._id).lean()).toMatchObject({ referrersCount: 1 });
      expect((await expectLedgerMatchesBalances(referrer._id)).get(String(coin._id))).toBe(toMicros('5'));
      expect(await OperationModel.find({ kind: 'referral-reward', 'data.referrerId': referrer._id }).lean()).toEqual([
        expect.objectContaining({ state: 'done', key: `referral:${String(friend._id)}` }),
      ]);
    };
    return { referrer, launch, expectRewardedOnce };
  }

  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'a newcomer registered with a code and killed at %s earns the referrer one reward and one invite, by the sweep alone',
    async (point) => {
      const { launch, expectRewardedOnce } = await referralWorld();
      await crashAt(point, () => upsertFromTelegram(launch, new Date()));
      // the friend is written (the point after recording is reached once they are), the rest is the operation's
      expect(await UserModel.countDocuments({ telegramId: launch.user.id })).toBe(1);
      await runJobsOnce(0);
      await expectRewardedOnce();
      // the friend's next launch is no registration, and changes nothing
      expect((await upsertFromTelegram(launch, new Date(Date.now() + 120_000))).created).toBe(false);
      await runJobsOnce(0);
      await expectRewardedOnce();
    },
  );

  it('a join killed in its admit, the invite counted and the referral not settled, is finished by the sweep alone, counted once', async () => {
    const { referrer, launch, expectRewardedOnce } = await referralWorld();
    await crashAt('ledger:after-record', () => upsertFromTelegram(launch, new Date()));
    // the state a kill between the admit's two writes leaves: the invite counted (its first write), the referral not settled
    const friend = (await UserModel.findOne({ telegramId: launch.user.id }).lean())!;
    expect(await countInvite(referrer._id, friend._id)).toBe(true);
    expect(friend.referralState ?? null).toBeNull();
    await runJobsOnce(0);
    await expectRewardedOnce();
  });

  it("a referral recorded for a newcomer never written is removed: by the sweep, or at once by a simultaneous launch's loser", async () => {
    const { referrer, launch, expectRewardedOnce } = await referralWorld();
    // killed before the friend was written (no point there: the same as never finishing what recordJoin returned)
    const unwritten = new Types.ObjectId();
    await recordJoin({
      friendId: unwritten,
      referrerId: referrer._id,
      from: 'new',
      at: new Date(),
      event: 'friend-joined',
      coin: null,
      amount: 0n,
      symbol: '',
    });
    expect(await OperationModel.countDocuments({ key: `referral:${String(unwritten)}` })).toBe(1);
    await runJobsOnce(0);
    expect(await OperationModel.countDocuments({ key: `referral:${String(unwritten)}` })).toBe(0);
    expect(await UserModel.findById(referrer._id).lean()).toMatchObject({ referrersCount: 0 });
    // two first launches at once: one registers the friend; the other's referral, recorded under an id never written, is
    // removed by that launch itself, so nothing lingers until the sweep
    const launches = await Promise.all([upsertFromTelegram(launch, new Date()), upsertFromTelegram(launch, new Date())]);
    expect(launches.map((outcome) => outcome.created).sort()).toEqual([false, true]);
    await expectRewardedOnce();
  });
});

describe('referrals an older version left pending', () => {
  it('are finished once at start-up by the reward under the same key, credited or not by that version', async () => {
    const coin = await createCoin();
    await AppConfigModel.updateOne(
      { key: 'app' },
      { $set: { referrerCoin: coin._id, referrerCoinAmount: Number(toMicros('5')), referralQualification: {} } },
      { upsert: true },
    );
    const referrer = await createPlayer({ inviteLimit: 10 });
    // as that version left them: one registered and killed before its invite was counted; one counted and credited, killed
    // before it was settled
    const [fresh, credited] = await Promise.all([
      createPlayer({ referrer: referrer._id, referralState: 'pending' }),
      createPlayer({ referrer: referrer._id, referralState: 'pending' }),
    ]);
    await UserModel.collection.updateOne({ _id: referrer._id }, { $set: { referrersCount: 1, countedFriends: [credited._id] } });
    await postEntry({
      userId: referrer._id,
      coinId: coin._id,
      amount: toMicros('5'),
      reason: 'referral',
      refType: 'User',
      refId: String(credited._id),
      idempotencyKey: `referral:${String(credited._id)}`,
      guarded: true,
    });
    await mongoose.connection.collection('migrations').deleteMany({ name: 'referral-pending' });
    await runJobsOnce(0);
    await runJobsOnce(0);
    for (const friend of [fresh, credited])
      expect(await UserModel.findById(friend._id).lean()).toMatchObject({ referralState: 'rewarded' });
    expect((await UserModel.findById(referrer._id).lean())!.referrersCount).toBe(2);
    expect(await LedgerEntryModel.countDocuments({ user: referrer._id, reason: 'referral', state: 'posted' })).toBe(2);
    expect((await expectLedgerMatchesBalances(referrer._id)).get(String(coin._id))).toBe(toMicros('10'));
  });
});

describe('gifts across a crash', () => {
  it.each(['ledger:after-record', 'ledger:after-apply'] as const)(
    'a gift killed at %s is given and audited once by the money recovery alone; a repeat changes nothing',
    async (point) => {
      const coin = await createCoin();
      const player = await createPlayer();
      const operator = {
        id: String((await AccountModel.create({ username: `giver-${tap()}`, passwordHash: 'x', permissions: ['*'] }))._id),
        username: 'giver',
      };
      const input = { coin: String(coin._id), amount: '12', direction: 'credit' as const, note: 'Contest prize', idempotencyKey: tap() };
      await crashAt(point, () => adjustBalance(String(player._id), input, operator));
      await runJobsOnce(0);
      const audited = () => AuditEntryModel.find({ action: 'adjust', record: String(player._id) }).lean();
      const [line] = await LedgerEntryModel.find({ user: player._id, reason: 'gift', state: 'posted' }).lean();
      expect(await audited()).toEqual([
        expect.objectContaining({
          username: 'giver',
          note: 'Contest prize',
          key: `adjust:${String(line!._id)}`,
          after: expect.objectContaining({ amount: '+12' }),
        }),
      ]);
      expect(await adjustBalance(String(player._id), input, operator)).toMatchObject({ entryId: String(line!._id), applied: false });
      expect(await audited()).toHaveLength(1);
      expect((await expectLedgerMatchesBalances(player._id)).get(String(coin._id))).toBe(toMicros('12'));
    },
  );
});

describe('what TTL indexes remove on MongoDB, and the embedded engine keeps for ever', () => {
  it('the housekeeping job removes expired rate counters and notifications settled over 30 days ago, and keeps the rest', async () => {
    const now = new Date();
    const player = await createPlayer();
    await RateLimitCounterModel.create([
      { key: `sweep-test:old:${randomBytes(4).toString('hex')}`, count: 3, expiresAt: new Date(now.getTime() - 1000) },
      { key: `sweep-test:live:${randomBytes(4).toString('hex')}`, count: 3, expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    const notification = { user: player._id, event: 'mining-ready', dueAt: now, status: 'sent' as const };
    await NotificationModel.create([
      { ...notification, key: 'sweep-test:settled-long-ago', settledAt: new Date(now.getTime() - 31 * 24 * 3600 * 1000) },
      { ...notification, key: 'sweep-test:settled-yesterday', settledAt: new Date(now.getTime() - 24 * 3600 * 1000) },
    ]);
    const report = await runJobsOnce(0, now);
    expect(report).toMatchObject({ expiredCounters: 1, settledNotifications: 1 });
    expect(await RateLimitCounterModel.find({ key: /^sweep-test/ }, { key: 1 }).lean()).toEqual([
      expect.objectContaining({ key: expect.stringMatching(/^sweep-test:live/) }),
    ]);
    expect((await NotificationModel.find({ key: /^sweep-test/ }, { key: 1 }).lean()).map((n) => n.key)).toEqual([
      'sweep-test:settled-yesterday',
    ]);
  });
});
