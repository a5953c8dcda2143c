import { Types } from 'mongoose';
import { onFault } from '../../lib/faults';
import { balanceOf, recordOperation, recoverPendingEntries } from '../ledger/ledger.service';
import { OperationModel } from '../ledger/operation.model';
import { NotificationModel } from '../notifications/notification.model';
import { UserModel } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { countStartsOfOlderVersion, finishPlacesOfOlderVersion, forgetDonePlaceKeys, reviewUserMission } from './missions.service';
import { createCoin, createManualMission, createPlayer, playerCaller } from '../../../test/factories';
import { expectLedgerMatchesBalances } from '../../../test/ledgerInvariant';

const REVIEWER = '65f0c0ffee0000000000abcd';

/** A Manual mission (`fields` change it) paying 2 of a coin of its own. */
async function createMission(fields: Record<string, unknown> = {}) {
  const { mission } = await createManualMission(await createCoin(), 2_000_000, 'Places');
  return (await MissionModel.findByIdAndUpdate(mission._id, { $set: { link: 'https://example.com', ...fields } }, { new: true }))!;
}

/** The mission's places, and its progress holding one (done or waiting for review). */
async function placesOf(missionId: Types.ObjectId) {
  const [mission, holding] = await Promise.all([
    MissionModel.findById(missionId, { completions: 1 }).lean(),
    UserMissionModel.countDocuments({ mission: missionId, status: { $in: ['done', 'pending'] } }),
  ]);
  return { completions: mission!.completions, holding };
}

const codesOf = (results: PromiseSettledResult<unknown>[]) =>
  results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { cause?: { code?: string } }).cause?.code] : []));

/** A player who tapped Go on the mission, and their claim of it. */
async function startedBy(mission: { _id: Types.ObjectId }) {
  const player = await createPlayer();
  await playerCaller(player).missions.go({ missionId: String(mission._id) });
  return { player, claim: () => playerCaller(player).missions.claim({ missionId: String(mission._id), proof: {} }) };
}

/** Stops the first operation of this kind at `point`, as a crash there would. */
function crashAt(point: string, kind: string) {
  let crashed = false;
  onFault((reached, reachedKind) => {
    if (reached === point && reachedKind === kind && !crashed) {
      crashed = true;
      throw new Error(`killed at ${point}`);
    }
  });
}

afterEach(() => onFault(null));

describe("a mission's places, taken and given back by the engine's operations", () => {
  it('sends exactly N of 3N simultaneous Manual claims for review, and rejecting them gives every place back', async () => {
    const N = 10;
    const mission = await createMission({ cap: N });
    const players = await Promise.all(Array.from({ length: 3 * N }, () => startedBy(mission)));

    const results = await Promise.allSettled(players.map((p) => p.claim()));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(N);
    expect(new Set(codesOf(results))).toEqual(new Set(['MISSION_FULL']));
    expect(await placesOf(mission._id)).toEqual({ completions: N, holding: N });

    const waiting = await UserMissionModel.find({ mission: mission._id, status: 'pending' }, { _id: 1 }).lean();
    await Promise.all(
      waiting.map((w) => reviewUserMission(String(w._id), { status: 'rejected', rejectReason: 'No' }, REVIEWER, new Date())),
    );
    expect(await placesOf(mission._id)).toEqual({ completions: 0, holding: 0 });
    // the keys of operations done are forgotten: none is left in flight
    await forgetDonePlaceKeys();
    expect((await MissionModel.findById(mission._id, { placeKeys: 1 }).lean())!.placeKeys).toEqual([]);
  });

  it('credits exactly N of 3N simultaneous first claims of a capped Auto mission', async () => {
    const N = 15;
    const mission = await createMission({ cap: N, verifyType: 'auto' });
    const players = await Promise.all(Array.from({ length: 3 * N }, () => createPlayer()));
    const results = await Promise.allSettled(players.map((p) => playerCaller(p).missions.claim({ missionId: String(mission._id) })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(N);
    expect(new Set(codesOf(results))).toEqual(new Set(['MISSION_FULL']));
    expect(await placesOf(mission._id)).toEqual({ completions: N, holding: N });
    const credited = await Promise.all(players.map((p) => balanceOf(p._id, mission.coin)));
    expect(credited.filter((amount) => amount > 0n)).toHaveLength(N);
  });

  it.each(['ledger:after-record', 'ledger:after-step'])(
    'finishes a Manual claim killed at %s by the sweep alone: waiting for review in one place',
    async (point) => {
      const mission = await createMission({ cap: 1 });
      const { player, claim } = await startedBy(mission);
      crashAt(point, 'mission-review');
      await expect(claim()).rejects.toThrow('killed');
      onFault(null);

      await recoverPendingEntries(0);
      expect(await UserMissionModel.findOne({ user: player._id }, { _id: 0, status: 1 }).lean()).toEqual({ status: 'pending' });
      expect(await placesOf(mission._id)).toEqual({ completions: 1, holding: 1 });
      // the claim again is told it waits; another player finds the mission full
      await expect(claim()).rejects.toMatchObject({ cause: { code: 'ALREADY_PENDING' } });
      await expect((await startedBy(mission)).claim()).rejects.toMatchObject({ cause: { code: 'MISSION_FULL' } });
      expect(await placesOf(mission._id)).toEqual({ completions: 1, holding: 1 });
    },
  );

  it.each(['ledger:after-record', 'ledger:after-step'])(
    'gives the place of a rejection killed at %s back once, by the sweep alone, and the player is told once',
    async (point) => {
      const mission = await createMission({ cap: 1 });
      const { player, claim } = await startedBy(mission);
      await UserModel.updateOne({ _id: player._id }, { $set: { messagePermission: true } });
      await claim();
      const progress = (await UserMissionModel.findOne({ user: player._id }).lean())!;
      crashAt(point, 'mission-reject');
      await expect(
        reviewUserMission(String(progress._id), { status: 'rejected', rejectReason: 'Blurry' }, REVIEWER, new Date()),
      ).rejects.toThrow('killed');
      onFault(null);

      await recoverPendingEntries(0);
      await recoverPendingEntries(0);
      expect(await UserMissionModel.findById(progress._id, { _id: 0, status: 1 }).lean()).toEqual({ status: 'rejected' });
      expect(await placesOf(mission._id)).toEqual({ completions: 0, holding: 0 });
      expect(await NotificationModel.countDocuments({ user: player._id, event: 'mission-rejected' })).toBe(1);
      // the place is free: another player takes it, and no more
      expect(await (await startedBy(mission)).claim()).toMatchObject({ status: 'pending' });
      await expect((await startedBy(mission)).claim()).rejects.toMatchObject({ cause: { code: 'MISSION_FULL' } });
      expect(await placesOf(mission._id)).toEqual({ completions: 1, holding: 1 });
    },
  );

  it('approves a claim in the place its review took, and takes none more', async () => {
    const mission = await createMission({ cap: 1 });
    const { player, claim } = await startedBy(mission);
    await claim();
    const progress = (await UserMissionModel.findOne({ user: player._id }).lean())!;
    crashAt('ledger:after-apply', 'mission-credit');
    await expect(reviewUserMission(String(progress._id), { status: 'done' }, REVIEWER, new Date())).rejects.toThrow('killed');
    onFault(null);
    await recoverPendingEntries(0);
    expect(await placesOf(mission._id)).toEqual({ completions: 1, holding: 1 });
    expect(await balanceOf(player._id, mission.coin)).toBe(2_000_000n);
    await expectLedgerMatchesBalances(player._id);
  });
});

describe('places and counts an older version left', () => {
  it('are settled once at start-up, by the operations under the same keys', async () => {
    const mission = await createMission({ verifyType: 'auto', cap: 10 });
    const [kept, owed, abandoned, first, rejected, uncounted] = await Promise.all([
      createPlayer(),
      createPlayer(),
      createPlayer(),
      createPlayer(),
      createPlayer(),
      createPlayer(),
    ]);
    const at = new Date(Date.now() - 60_000);
    const base = { mission: mission._id, day: null, category: mission.category, coin: mission.coin, reward: mission.reward };
    const insert = async (user: Types.ObjectId, fields: Record<string, unknown>) =>
      (await UserMissionModel.collection.insertOne({ ...base, user, startedAt: at, ...fields })).insertedId;
    // as the older version left them, through the driver: each claim's place held on the mission and counted in completions
    const keptId = await insert(kept._id, { status: 'done', claimedAt: at, doneAt: at, seated: true });
    const owedId = await insert(owed._id, { status: 'started', seated: false });
    const abandonedId = await insert(abandoned._id, { status: 'started', seated: false });
    const rejectedId = await insert(rejected._id, { status: 'rejected', seated: false });
    await insert(uncounted._id, { status: 'started', uncounted: true });
    const firstId = new Types.ObjectId();
    await MissionModel.collection.updateOne(
      { _id: mission._id },
      {
        $set: {
          completions: 5,
          seating: [
            { progress: keptId, at },
            { progress: owedId, at },
            { progress: abandonedId, at },
            { progress: firstId, at, user: first._id, day: null },
            // a rejection's hold on the place its claim had counted
            { progress: rejectedId, at },
          ],
        },
      },
    );
    // the claim of `owed` recorded its credit's operation, then the older version died before its admit
    const credit = { progress: { _id: owedId, user: owed._id, ...base }, via: 'claim', at };
    await recordOperation({
      kind: 'mission-credit',
      key: `mission:${String(owedId)}`,
      refType: 'UserMission',
      refId: String(owedId),
      players: [{ user: owed._id, coin: mission.coin, amount: 2_000_000n, reason: 'mission' }],
      house: [{ account: 'rewards:mission', coin: mission.coin, amount: -2_000_000n }],
      data: credit,
      guarded: true,
    });

    expect(await finishPlacesOfOlderVersion()).toBe(5);
    expect(await finishPlacesOfOlderVersion()).toBe(0);
    expect(await countStartsOfOlderVersion()).toBe(1);
    expect(await countStartsOfOlderVersion()).toBe(0);
    // the kept place stays, the owed one is its operation's now, the others went back
    expect(await MissionModel.collection.findOne({ _id: mission._id })).toMatchObject({
      completions: 2,
      placeKeys: [`mission:${String(owedId)}`],
    });
    expect(await MissionModel.collection.findOne({ _id: mission._id })).not.toHaveProperty('seating');

    // the engine's sweep finishes the owed claim in the place it was given: none taken twice
    expect(await recoverPendingEntries(0)).toBe(1);
    await forgetDonePlaceKeys();
    expect(await placesOf(mission._id)).toEqual({ completions: 2, holding: 2 });
    expect(await balanceOf(owed._id, mission.coin)).toBe(2_000_000n);
    expect((await MissionModel.findById(mission._id, { placeKeys: 1 }).lean())!.placeKeys).toEqual([]);
    // the Go the older version left uncounted is counted once, its flag gone
    expect(await UserModel.findById(uncounted._id, { _id: 0, missionsCount: 1 }).lean()).toEqual({ missionsCount: 1 });
    expect(await UserMissionModel.collection.countDocuments({ uncounted: { $exists: true } })).toBe(0);
    // the players whose places went back claim again, each in a new place
    for (const player of [abandoned, first])
      expect(await playerCaller(player).missions.claim({ missionId: String(mission._id) })).toBeTruthy();
    expect(await placesOf(mission._id)).toEqual({ completions: 4, holding: 4 });
    expect(await OperationModel.countDocuments({ state: { $ne: 'done' } })).toBe(0);
  });
});
