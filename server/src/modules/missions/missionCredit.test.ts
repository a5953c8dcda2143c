import mongoose, { Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { onFault } from '../../lib/faults';
import { runJobsOnce } from '../../jobs';
import { CategoryModel } from '../content/content.models';
import { balanceOf, postEntry, recoverPendingEntries } from '../ledger/ledger.service';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { OperationModel } from '../ledger/operation.model';
import { setPlayerStatus } from '../users/playerStatus.service';
import { UserModel } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';

/** A player's mission counters as the console and the risk score read them. */
const countersOf = async (playerId: unknown) => UserModel.findById(playerId, { _id: 0, missionsCount: 1, doneMissionsCount: 1 }).lean();

afterEach(() => onFault(null));

describe('a mission credit an older version left owed', () => {
  it('is finished once at the first start, by the engine under the same key: credited once, counted once, the flags gone', async () => {
    const coin = await createCoin();
    const category = await CategoryModel.create({ title: 'Upgrade' });
    const mission = (fields: Record<string, unknown> = {}) =>
      MissionModel.create({
        category: category._id,
        coin: coin._id,
        title: 'Visit',
        link: 'https://example.com',
        reward: Number(toMicros('3')),
        verifyType: 'auto',
        ...fields,
      });
    const [uncredited, posted, frozen, released] = await Promise.all([createPlayer(), createPlayer(), createPlayer(), createPlayer()]);
    const [first, second, third, capped] = await Promise.all([mission(), mission(), mission(), mission({ cap: 1 })]);
    const doneAt = new Date(Date.now() - 120_000);
    // as the older version wrote them, through the driver: done with the credit owed (and, for a first claim, uncounted)
    const owed = (user: Types.ObjectId, of: { _id: Types.ObjectId }, extra: Record<string, unknown> = {}) =>
      UserMissionModel.collection.insertOne({
        ...{ user, mission: of._id, day: null, category: category._id, coin: coin._id, reward: Number(toMicros('3')) },
        ...{ status: 'done', startedAt: doneAt, claimedAt: doneAt, doneAt, seated: true, awaitingCredit: true, ...extra },
      });
    const a = (await owed(uncredited._id, first, { uncounted: true })).insertedId;
    // this one's credit the older version posted (its operation under the reason's kind), then died before counting it
    const b = (await owed(posted._id, second)).insertedId;
    await postEntry({
      userId: posted._id,
      coinId: coin._id,
      amount: toMicros('3'),
      reason: 'mission',
      refType: 'UserMission',
      refId: String(b),
      idempotencyKey: `mission:${String(b)}`,
      guarded: true,
    });
    const c = (await owed(frozen._id, third, { uncounted: true })).insertedId;
    await setPlayerStatus(frozen._id, { status: 'frozen', statusReason: 'Shared wallet' }, new Date());
    // a capped mission's place the older version gave back while the claim held it (its `seatReleased` mark no longer read)
    await UserMissionModel.collection.insertOne({
      ...{ user: released._id, mission: capped._id, day: null, category: category._id, coin: coin._id, reward: Number(toMicros('3')) },
      ...{ status: 'started', startedAt: doneAt, seated: false, seatReleased: true },
    });

    // the first start of this version on that database (the migration's record, if an earlier pass finished it, removed)
    await mongoose.connection.collection('migrations').deleteMany({ name: 'mission-owed-credits' });
    expect((await runJobsOnce(0)).missions).toBe(3);
    expect((await runJobsOnce(0)).missions).toBe(0);

    for (const id of [a, b, c]) {
      const row = await UserMissionModel.collection.findOne({ _id: id });
      expect(row).toMatchObject({ status: 'done' });
      expect(row).not.toHaveProperty('awaitingCredit');
      expect(row).not.toHaveProperty('uncounted');
      expect(await LedgerEntryModel.countDocuments({ idempotencyKey: `mission:${String(id)}`, state: 'posted' })).toBe(id === c ? 0 : 1);
    }
    expect(await balanceOf(uncredited._id, coin._id)).toBe(toMicros('3'));
    expect(await countersOf(uncredited._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
    // posted once, not again; its count made
    expect(await balanceOf(posted._id, coin._id)).toBe(toMicros('3'));
    expect(await countersOf(posted._id)).toEqual({ missionsCount: 0, doneMissionsCount: 1 });
    // the frozen player's credit stays owed as the engine's operation, kept (not removed) while they are held
    expect(await OperationModel.findOne({ key: `mission:${String(c)}` }).lean()).toMatchObject({ state: 'recorded', held: true });
    expect(await balanceOf(frozen._id, coin._id)).toBe(0n);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await OperationModel.exists({ key: `mission:${String(c)}` })).not.toBeNull();

    // active again: the engine's sweep pays it and counts it, once
    await setPlayerStatus(frozen._id, { status: 'active' }, new Date());
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await balanceOf(frozen._id, coin._id)).toBe(toMicros('3'));
    expect(await countersOf(frozen._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
    expect(await OperationModel.findOne({ key: `mission:${String(c)}` }).lean()).toMatchObject({ state: 'done' });

    // the released one is claimed again: a new place, done and credited once
    expect(await playerCaller(released).missions.claim({ missionId: String(capped._id) })).toMatchObject({ status: 'done' });
    expect(await MissionModel.findById(capped._id, { completions: 1 }).lean()).toMatchObject({ completions: 1 });
    expect(await balanceOf(released._id, coin._id)).toBe(toMicros('3'));
    for (const player of [uncredited, posted, frozen, released]) await expectLedgerMatchesBalances(player._id);
  });

  it("keeps a claim's credit owed by its operation through a crash after any write, finished by the engine's sweep alone", async () => {
    const coin = await createCoin();
    const category = await CategoryModel.create({ title: 'Crashes' });
    for (const point of ['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const) {
      const player = await createPlayer();
      const mission = await MissionModel.create({
        category: category._id,
        coin: coin._id,
        title: `Crash at ${point}`,
        link: 'https://example.com',
        reward: Number(toMicros('2')),
        verifyType: 'auto',
        cap: 10,
      });
      onFault((reached) => {
        if (reached === point) throw new Error(`killed at ${point}`);
      });
      await expect(playerCaller(player).missions.claim({ missionId: String(mission._id) })).rejects.toThrow('killed');
      onFault(null);
      await runJobsOnce(0);
      expect(await UserMissionModel.findOne({ user: player._id, mission: mission._id }).lean()).toMatchObject({ status: 'done' });
      expect(await balanceOf(player._id, coin._id)).toBe(toMicros('2'));
      expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
      // one place, taken by the operation under its key, which is forgotten once the operation is done
      expect(await MissionModel.findById(mission._id, { completions: 1, placeKeys: 1 }).lean()).toMatchObject({
        completions: 1,
        placeKeys: [],
      });
      expect(await OperationModel.findOne({ kind: 'mission-credit', user: player._id }).lean()).toMatchObject({ state: 'done' });
      await expectLedgerMatchesBalances(player._id);
    }
  });
});
