import { onFault } from '../../lib/faults';
import { CategoryModel } from '../content/content.models';
import { UserModel } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { balanceOf, recoverPendingEntries } from '../ledger/ledger.service';
import { OperationModel } from '../ledger/operation.model';
import { forgetDonePlaceKeys } from './missions.service';
import { createCoin, createPlayer, playerCaller } from '../../../test/factories';

/** A player's mission counters as the console and the risk score read them. */
const countersOf = async (playerId: unknown) => UserModel.findById(playerId, { _id: 0, missionsCount: 1, doneMissionsCount: 1 }).lean();

async function createMission(fields: Record<string, unknown> = {}) {
  const [category, coin] = await Promise.all([CategoryModel.create({ title: 'Counted' }), createCoin()]);
  return MissionModel.create({
    category: category._id,
    coin: coin._id,
    title: 'Mission',
    link: 'https://example.com',
    reward: 1_000_000,
    verifyType: 'auto',
    ...fields,
  });
}

/** Stops the operation at `point` (of this kind of operation, if named) the first time it is reached, as a crash there would. */
function crashOnceAt(point: string, kind?: string) {
  let crashed = false;
  onFault((reached, reachedKind) => {
    if (reached === point && (!kind || reachedKind === kind) && !crashed) {
      crashed = true;
      throw new Error(`crashed at ${point}`);
    }
  });
}

/** The next count in a player's mission counters fails, as a crash just before it would. */
function cutCountOnce() {
  const updateOne = UserModel.updateOne.bind(UserModel);
  let cut = false;
  jest.spyOn(UserModel, 'updateOne').mockImplementation(((filter: Record<string, unknown>, ...rest: unknown[]) => {
    if (filter && 'countedProgress' in filter && !cut) {
      cut = true;
      return Promise.reject(new Error('killed before the count'));
    }
    return (updateOne as (...args: unknown[]) => unknown)(filter, ...rest);
  }) as never);
}

afterEach(() => {
  onFault(null);
  jest.restoreAllMocks();
});

describe("a player's mission counters under crashes", () => {
  it('counts a first Go killed after its operation was recorded, by the sweep alone, once: the progress written and counted', async () => {
    const mission = await createMission({ verifyType: 'time', verifyDuration: 0 });
    const player = await createPlayer();
    const missionId = String(mission._id);

    crashOnceAt('ledger:after-record', 'mission-start');
    await expect(playerCaller(player).missions.go({ missionId })).rejects.toThrow('crashed at ledger:after-record');
    expect(await UserMissionModel.countDocuments({ user: player._id })).toBe(0);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 0, doneMissionsCount: 0 });

    // no Go again: the engine's sweep writes the progress the Go recorded and counts it; a second pass finds nothing
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    expect(await UserMissionModel.findOne({ user: player._id }).lean()).toMatchObject({ status: 'started' });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 0 });
    await playerCaller(player).missions.go({ missionId });
    expect(await playerCaller(player).missions.claim({ missionId })).toMatchObject({ status: 'done' });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
    expect(await OperationModel.countDocuments({ user: null, kind: 'mission-start', state: { $ne: 'done' } })).toBe(0);
  });

  it('counts a Go killed between its progress and its count once, by its retry or by the sweep', async () => {
    const [retried, swept] = await Promise.all([createMission({ verifyType: 'time', verifyDuration: 5 }), createMission()]);
    const player = await createPlayer();
    for (const mission of [retried, swept]) {
      // the count, the Go's step, is cut off once: the progress is there, its count not
      cutCountOnce();
      await expect(playerCaller(player).missions.go({ missionId: String(mission._id) })).rejects.toThrow('killed before the count');
      jest.restoreAllMocks();
    }
    expect(await UserMissionModel.countDocuments({ user: player._id, status: 'started' })).toBe(2);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 0, doneMissionsCount: 0 });

    // the Go again finishes its operation (the same key); the other is finished by the sweep alone
    await playerCaller(player).missions.go({ missionId: String(retried._id) });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 0 });
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    await playerCaller(player).missions.go({ missionId: String(retried._id) });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 2, doneMissionsCount: 0 });
  });

  it('counts a first claim once when it crashed after its credit, finished by its retry or by the sweep', async () => {
    const [retried, swept] = await Promise.all([createMission(), createMission()]);
    const player = await createPlayer();
    for (const mission of [retried, swept]) {
      crashOnceAt('ledger:after-apply');
      await expect(playerCaller(player).missions.claim({ missionId: String(mission._id) })).rejects.toThrow();
    }
    onFault(null);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 0, doneMissionsCount: 0 });

    await expect(playerCaller(player).missions.claim({ missionId: String(retried._id) })).rejects.toMatchObject({
      cause: { code: 'ALREADY_DONE' },
    });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
    // the engine's sweep, no recoverer of the missions' own
    expect(await recoverPendingEntries(0)).toBe(1);
    expect(await recoverPendingEntries(0)).toBe(0);
    await expect(playerCaller(player).missions.claim({ missionId: String(swept._id) })).rejects.toMatchObject({
      cause: { code: 'ALREADY_DONE' },
    });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 2, doneMissionsCount: 2 });
  });

  it.each(['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const)(
    'counts a first claim of a capped mission killed at %s once, by the sweep alone: one place, done and credited',
    async (point) => {
      const mission = await createMission({ cap: 5 });
      const player = await createPlayer();
      crashOnceAt(point, 'mission-credit');
      await expect(playerCaller(player).missions.claim({ missionId: String(mission._id) })).rejects.toThrow(`crashed at ${point}`);
      onFault(null);

      // the engine's sweep finishes it; the place's key is forgotten once it is done
      await recoverPendingEntries(0);
      await forgetDonePlaceKeys();
      expect(await UserMissionModel.find({ user: player._id }, { _id: 0, status: 1 }).lean()).toEqual([{ status: 'done' }]);
      expect(await MissionModel.findById(mission._id, { _id: 0, completions: 1, placeKeys: 1 }).lean()).toEqual({
        completions: 1,
        placeKeys: [],
      });
      expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
      expect(await balanceOf(player._id, mission.coin)).toBe(BigInt(mission.reward));
      // claimed again: told it is done, nothing more taken
      await expect(playerCaller(player).missions.claim({ missionId: String(mission._id) })).rejects.toMatchObject({
        cause: { code: 'ALREADY_DONE' },
      });
      expect(await MissionModel.findById(mission._id, { _id: 0, completions: 1 }).lean()).toEqual({ completions: 1 });
    },
  );

  it('counts 20 simultaneous first claims of 20 missions, and 20 of one mission once', async () => {
    const missions = await Promise.all(Array.from({ length: 20 }, () => createMission()));
    const player = await createPlayer();
    const claims = await Promise.allSettled(missions.map((m) => playerCaller(player).missions.claim({ missionId: String(m._id) })));
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(20);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 20, doneMissionsCount: 20 });

    const other = await createPlayer();
    const same = await Promise.allSettled(
      Array.from({ length: 20 }, () => playerCaller(other).missions.claim({ missionId: String(missions[0]!._id) })),
    );
    expect(same.filter((c) => c.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    expect(await countersOf(other._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
  });
});
