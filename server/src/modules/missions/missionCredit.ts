import type { Types } from 'mongoose';
import { entryKeys, postEntry } from '../ledger/ledger.service';
import { countMissionProgress } from '../users/players.service';
import { faultPoint } from '../../lib/faults';
import { isHold } from '../../lib/errors';
import type { Id } from '../../db/ids';
import { UserMissionModel } from './mission.models';
import { countStreakDay } from './streaks';

interface CreditableProgress {
  _id: Id;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  reward: number;
  reviewedBy?: Types.ObjectId | null;
  /** A daily mission's day: counted in the player's streak with the credit. */
  day?: string | null;
  /** Not yet counted in the player's missionsCount (a first claim's record, or one a crash left uncounted): counted with it. */
  uncounted?: boolean | null;
}

/** A mission's reward goes to the ledger under `mission:<userMissionId>`, so it is credited once whoever calls. */
async function creditMissionReward(progress: CreditableProgress): Promise<void> {
  if (progress.reward <= 0) return;
  await postEntry({
    userId: progress.user,
    coinId: progress.coin,
    amount: BigInt(progress.reward),
    reason: 'mission',
    refType: 'UserMission',
    refId: String(progress._id),
    idempotencyKey: entryKeys.missionReward(progress._id),
    createdBy: progress.reviewedBy ?? null,
    // held while the player is frozen or banned: the credit stays owed (awaitingCredit) and is paid once they are active
    guarded: true,
  });
}

/**
 * Finishes a mission marked done with its credit owed (`awaitingCredit`, set in the same step as done, by a
 * claim or an approval): credits it once (by its key), counts it in doneMissionsCount (and in missionsCount while
 * `uncounted`) once (by its key), and clears the flags; a daily mission's day also counts in the player's streak
 * (`streaks.ts`). The claim, the review, a repeated claim and the recovery sweep all call this; true for the caller
 * that cleared the flag. `markRiskDueAt`: a first claim marks the player's risk score due in the same write as the counts.
 */
export async function creditApproval(
  approved: CreditableProgress,
  { holdThrows = false, markRiskDueAt }: { holdThrows?: boolean; markRiskDueAt?: Date } = {},
): Promise<boolean> {
  try {
    await creditMissionReward(approved);
    await countStreakDay(approved);
  } catch (error) {
    // a frozen or banned player's credit stays owed; the claim tells the player why, a review and the sweep go on
    if (isHold(error) && !holdThrows) return false;
    throw error;
  }
  await faultPoint('mission:after-credit');
  const counters = approved.uncounted ? (['missionsCount', 'doneMissionsCount'] as const) : (['doneMissionsCount'] as const);
  await countMissionProgress(approved.user, approved._id, [...counters], markRiskDueAt);
  const finished = await UserMissionModel.updateOne(
    { _id: approved._id, awaitingCredit: true },
    { $set: { awaitingCredit: false }, ...(approved.uncounted ? { $unset: { uncounted: 1 } } : {}) },
  );
  return finished.modifiedCount > 0;
}

/**
 * Finishes claims and approvals a crash interrupted between done and the credit; returns how many this call finished. Safe to run any
 * time.
 */
export async function recoverApprovedMissions(olderThanMs = 30_000): Promise<number> {
  const interrupted = await UserMissionModel.find({
    status: 'done',
    awaitingCredit: true,
    doneAt: { $lte: new Date(Date.now() - olderThanMs) },
  }).limit(1000);
  let finished = 0;
  for (const approved of interrupted) if (await creditApproval(approved)) finished++;
  return finished;
}

/** Finishes the credit of a done mission whose credit is still owed (`awaitingCredit`); nothing otherwise. */
export async function finishInterruptedCredit(progressId: Types.ObjectId): Promise<void> {
  const owed = await UserMissionModel.findOne(
    { _id: progressId, status: 'done', awaitingCredit: true },
    { user: 1, coin: 1, reward: 1, reviewedBy: 1, day: 1, uncounted: 1 },
  ).lean();
  if (owed) await creditApproval(owed);
}
