import { onFault } from '../../lib/faults';
import { CategoryModel } from '../content/content.models';
import { UserModel } from '../users/user.model';
import { MissionModel, UserMissionModel } from './mission.models';
import { recoverPendingEntries } from '../ledger/ledger.service';
import { countUncountedProgress, settleStaleSeats } from './missions.service';
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

/** Stops the operation at `point` the first time it is reached, as a crash there would. */
function crashOnceAt(point: string) {
  let crashed = false;
  onFault((reached) => {
    if (reached === point && !crashed) {
      crashed = true;
      throw new Error(`crashed at ${point}`);
    }
  });
}

afterEach(() => onFault(null));

describe("a player's mission counters under crashes", () => {
  it('counts a first Go once when it crashed between the progress and its count, and its retry finds the progress there', async () => {
    const mission = await createMission({ verifyType: 'time', verifyDuration: 0 });
    const player = await createPlayer();
    const missionId = String(mission._id);

    crashOnceAt('mission:after-start');
    await expect(playerCaller(player).missions.go({ missionId })).rejects.toThrow('crashed at mission:after-start');
    expect(await UserMissionModel.countDocuments({ user: player._id })).toBe(1);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 0, doneMissionsCount: 0 });

    // the retry finds the progress already there, and counts it still; repeats count nothing more
    await playerCaller(player).missions.go({ missionId });
    await playerCaller(player).missions.go({ missionId });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 0 });
    expect(await playerCaller(player).missions.claim({ missionId })).toMatchObject({ status: 'done' });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
  });

  it('counts a crashed Go the player never comes back to, by the sweep, once', async () => {
    const mission = await createMission({ verifyType: 'time', verifyDuration: 5 });
    const player = await createPlayer();
    crashOnceAt('mission:after-start');
    await expect(playerCaller(player).missions.go({ missionId: String(mission._id) })).rejects.toThrow();

    expect(await countUncountedProgress(0)).toBe(1);
    expect(await countUncountedProgress(0)).toBe(0);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 0 });
    await playerCaller(player).missions.go({ missionId: String(mission._id) });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 0 });
  });

  it('counts a crashed Go when the player claims instead of tapping Go again', async () => {
    const mission = await createMission({ verifyType: 'time', verifyDuration: 0 });
    const player = await createPlayer();
    crashOnceAt('mission:after-start');
    await expect(playerCaller(player).missions.go({ missionId: String(mission._id) })).rejects.toThrow();

    expect(await playerCaller(player).missions.claim({ missionId: String(mission._id) })).toMatchObject({ status: 'done' });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
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

  it('counts a first claim whose hold the sweep gave back before its progress was written, once, when it is claimed again', async () => {
    const mission = await createMission({ cap: 5 });
    const player = await createPlayer();
    const missionId = String(mission._id);
    crashOnceAt('mission:after-seat');
    await expect(playerCaller(player).missions.claim({ missionId })).rejects.toThrow();
    onFault(null);

    // the sweep writes the progress the hold was for, released, and gives the place back
    expect(await settleStaleSeats(0)).toBe(1);
    expect(await MissionModel.findById(mission._id, { completions: 1, seating: 1 }).lean()).toMatchObject({ completions: 0, seating: [] });
    expect(await UserMissionModel.findOne({ user: player._id }).lean()).toMatchObject({ status: 'started', seatReleased: true });
    // the progress the sweep wrote is the player's: counted, once, whether or not they come back
    expect(await countUncountedProgress(0)).toBe(1);
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 0 });

    expect(await playerCaller(player).missions.claim({ missionId })).toMatchObject({ status: 'done' });
    expect(await MissionModel.findById(mission._id, { completions: 1 }).lean()).toMatchObject({ completions: 1 });
    expect(await countersOf(player._id)).toEqual({ missionsCount: 1, doneMissionsCount: 1 });
  });

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
