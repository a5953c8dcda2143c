import type { Types } from 'mongoose';
import { AppError } from '../../lib/errors';
import { migrateOnce } from '../../db/migrationProgress';
import { entryKeys, entryWithKey } from '../ledger/ledger.service';
import { UserMissionModel } from './mission.models';
import { countCredited, creditMission, startProgressOperation, type MissionCredit } from './missions.kinds';

/** A progress as an older version left it, done with its credit owed. */
interface OwedProgress extends Omit<MissionCredit['progress'], 'day'> {
  day?: string | null;
  status: string;
  doneAt?: Date | null;
  reviewedBy?: Types.ObjectId | null;
  uncounted?: boolean;
}

/** A player's hold keeps the credit owed as an operation (the sweep pays it, and counts it, once they are active). */
async function heldOrDone(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

/**
 * Start-up, once: claims and approvals an older version marked done with their credit owed (`awaitingCredit`, set with done
 * before the engine carried the credit) are finished by the engine's own operation under the same key, and the flag removed
 * (with `uncounted`, which the operation's count settles). Its counts are made here too (each keyed: once), since the older
 * version may have posted the credit, whose operation is then done already, and crashed before counting it. One whose player
 * is frozen or banned stays owed as an operation, paid once they are active. Returns how many it finished.
 */
export async function finishMissionCreditsOfOlderVersion(): Promise<number> {
  let finished = 0;
  await migrateOnce('mission-owed-credits', async () => {
    const owed = await UserMissionModel.collection
      .find<OwedProgress>(
        { awaitingCredit: true },
        { projection: { user: 1, mission: 1, day: 1, category: 1, coin: 1, reward: 1, status: 1, doneAt: 1, reviewedBy: 1, uncounted: 1 } },
      )
      .toArray();
    for (const progress of owed) {
      if (progress.status === 'done') {
        const credit: MissionCredit = {
          progress,
          via: 'done',
          at: progress.doneAt ?? new Date(),
          reviewedBy: progress.reviewedBy ?? null,
          uncounted: !!progress.uncounted,
        };
        // a credit the older version posted has its line, given its operation by the ledger's own migration: not posted again
        if (!(await entryWithKey(entryKeys.missionReward(progress._id)))) await heldOrDone(creditMission(credit));
        await heldOrDone(countCredited(credit));
        finished++;
      }
      await UserMissionModel.collection.updateOne({ _id: progress._id }, { $unset: { awaitingCredit: '' } });
    }
    return null;
  });
  return finished;
}

/**
 * Start-up, once: progress records an older version's Go wrote and left uncounted in the player's missionsCount (`uncounted`,
 * a crash between the record and its count) are counted by the operation a Go is now (`mission-start`, keyed by the record:
 * its count keyed likewise, so one the older version counted before it crashed is not counted again), and the flag removed.
 */
export async function countStartsOfOlderVersion(): Promise<number> {
  let counted = 0;
  await migrateOnce('mission-uncounted-starts', async () => {
    const owed = await UserMissionModel.collection
      .find<OwedProgress & { startedAt?: Date | null }>(
        { uncounted: true },
        { projection: { user: 1, mission: 1, day: 1, category: 1, coin: 1, reward: 1, startedAt: 1 } },
      )
      .toArray();
    for (const { _id, user, mission, day = null, category, coin, reward, startedAt } of owed) {
      await startProgressOperation({ _id, user, mission, day, category, coin, reward }, startedAt ?? new Date());
      await UserMissionModel.collection.updateOne({ _id }, { $unset: { uncounted: '' } });
      counted++;
    }
    return null;
  });
  return counted;
}
