import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { entryKeys, finishOperation, runOperation, type OperationKind } from '../ledger/ledger.service';
import { findCoin } from '../coins/giftCoins.service';
import { notify } from '../notifications/notifications.service';
import { countMissionProgress } from '../users/players.service';
import { MissionModel, UserMissionModel } from './mission.models';
import { givePlaceBack, takePlace, undoPlace } from './missionPlaces';
import { freeFor, UNLOCKED } from './reviewLocks';
import { countStreakDay } from './streaks';

/**
 * The missions' kinds of the money engine (ledger/engine.ts). Each is recorded first, so it is what owes its work; its admit
 * check takes the change the player or the operator sees in one conditional write per record, and its steps follow, each
 * keyed; a crash anywhere is finished by a retry or the engine's sweep, from the operation alone:
 * - `mission-credit`, a mission's reward, one per player's progress (keyed `mission:<progressId>`, as the credit was before
 *   the engine): its admit takes the mission's place (a claim's; an approval's was taken by its review) and marks the progress
 *   done (a claim: started → done, or a first claim's progress written done at once; an operator's approval: pending → done),
 *   so of simultaneous claims or approvals one takes it. The engine credits the player from `rewards:mission`; the step counts
 *   the progress in the player's counters and a daily mission's day in the streak (its milestone keyed), and tells the player
 *   of an operator's approval. A frozen or banned player's credit, admitted before their hold, stays owed, paid once they are
 *   active.
 * - `mission-start`, a player's Go (no postings, keyed by the progress it creates): its admit writes the progress started,
 *   its step counts it in missionsCount.
 * - `mission-review`, a Manual claim sent for review (no postings, keyed by the progress and the start it claims): its admit
 *   takes the place and marks the progress pending.
 * - `mission-reject`, an operator's rejection of it (no postings, keyed likewise): its admit marks the progress rejected (one
 *   decision stands), its step gives the place back and tells the player.
 * A mission's places are taken and given back by these operations alone (`missionPlaces.ts`), each under its key.
 * Registered at the composition root (server/src/moneyKinds.ts).
 */

const MISSION_CREDIT = 'mission-credit';

/** The progress as the credit needs it (its mission's reward and coin, as claimed). */
export interface CreditedProgress {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  mission: Types.ObjectId;
  day?: string | null;
  category: Types.ObjectId;
  coin: Types.ObjectId;
  reward: number;
}

export interface MissionCredit {
  progress: CreditedProgress;
  /**
   * How the admit marks it done: `first`, a first claim's progress written done at once (counted in both counters); `claim`, a
   * started one; `approval`, a pending one an operator approves; `done`, one an older version left done with its credit owed.
   * A claim (`first`, `claim`) takes its place among the mission's completions; an approval's was taken by its review.
   */
  via: 'first' | 'claim' | 'approval' | 'done';
  /** When it was claimed or approved. */
  at: Date;
  reviewedBy?: Types.ObjectId | null;
  /** A claim's: the mission's cap as the claim read it (none: no limit). */
  cap?: number | null;
  /** An older version's operation: a record its Go left uncounted in missionsCount, counted with the credit. */
  uncounted?: boolean;
  /** A first claim marks the player's risk score due in the same write as the counts. */
  markRiskDueAt?: Date | null;
}

const REFUSED = 'UNAVAILABLE';

/** Marks the progress done for this operation, or finds it done (only this key credits a progress); anything else: refused. */
async function markDone(operation: { key: string; data?: unknown }): Promise<AppError | null> {
  const { progress, via, at, reviewedBy, cap } = operation.data as MissionCredit;
  const { _id, user, mission, day = null, category, coin, reward } = progress;
  const claim = via === 'first' || via === 'claim';
  if (claim && !(await takePlace(mission, operation.key, cap))) return new AppError('MISSION_FULL');
  if (via === 'first') {
    try {
      const written = await UserMissionModel.updateOne(
        { user, mission, day },
        {
          $setOnInsert: {
            ...{ _id, user, mission, day, category, coin, reward },
            ...{ status: 'done', startedAt: at, claimedAt: at, doneAt: at },
          },
        },
        { upsert: true, setDefaultsOnInsert: true },
      );
      if (written.upsertedCount) return null;
    } catch (error) {
      // real MongoDB: a simultaneous first Go or claim won the unique (user, mission, day) index
      if (!isDuplicateKey(error)) throw error;
    }
  } else if (via === 'claim') {
    const taken = await UserMissionModel.updateOne(
      { _id, status: 'started' },
      { $set: { status: 'done', claimedAt: at, doneAt: at, reward, coin } },
    );
    if (taken.modifiedCount) return null;
  } else if (via === 'approval') {
    const cleared = { firstApprovedBy: null, firstApprovedAt: null, ...UNLOCKED };
    const taken = await UserMissionModel.updateOne(
      { _id, status: 'pending', ...freeFor(reviewedBy!, at) },
      { $set: { status: 'done', doneAt: at, reviewedBy, rejectReason: '', rejectReasonFa: '', ...cleared } },
    );
    if (taken.modifiedCount) return null;
  }
  if (await UserMissionModel.exists({ _id, status: 'done' })) return null;
  // the progress was there after all (a first claim's: started by a Go), or is no longer to be claimed: its place goes back
  if (claim) await undoPlace(mission, operation.key);
  return new AppError(REFUSED);
}

/** The counts that follow a credit, each keyed by the progress (so a repeat counts nothing more). */
export async function countCredited({ progress, uncounted, markRiskDueAt, via }: MissionCredit): Promise<void> {
  const counters = via === 'first' || uncounted ? (['missionsCount', 'doneMissionsCount'] as const) : (['doneMissionsCount'] as const);
  await countMissionProgress(progress.user, progress._id, [...counters], markRiskDueAt ?? undefined);
  await countStreakDay(progress);
}

/**
 * Tells the player an operator approved their claim, with its reward (keyed by the claim: once). `held`: the player's hold kept
 * the credit owed at the approval, so they are told then, with the reward held until they are active again; the step that
 * follows the credit, once it lands, finds the message already queued under the key and sends nothing more.
 */
export async function notifyApproved({ progress }: Pick<MissionCredit, 'progress'>, held?: 'frozen' | 'banned'): Promise<void> {
  const [mission, coin] = await Promise.all([
    MissionModel.findById(progress.mission, { title: 1 }).lean(),
    findCoin(progress.coin, { symbol: 1 }),
  ]);
  const reward = progress.reward > 0 && coin ? { amount: fromMicros(progress.reward), symbol: coin.symbol, ...(held ? { held } : {}) } : {};
  await notify(progress.user, `mission-approved:${String(progress._id)}`, 'mission-approved', {
    mission: mission?.title ?? '',
    missionId: String(progress.mission),
    ...reward,
  });
}

/**
 * A missions' kind: its admit takes the change, and one step (`follow-up`: each step's record is a write, on a claim's hot
 * path too) does what follows it, each part keyed.
 */
function missionKind<Data>(
  kind: string,
  admit: NonNullable<OperationKind['admit']>,
  followUp: (data: Data, key: string) => Promise<void>,
): OperationKind {
  return { kind, admit, steps: [{ name: 'follow-up', run: (operation) => followUp(operation.data as Data, operation.key) }] };
}

// the counts, a daily mission's streak day, and an approval's word to the player
const missionCreditKind = missionKind<MissionCredit>(MISSION_CREDIT, markDone, async (credit) => {
  await countCredited(credit);
  if (credit.via === 'approval') await notifyApproved(credit);
});
// an older version recorded the credit under the reason's kind, after marking the progress done: admitted as it is, so one
// its player's hold refuses stays owed as this kind's do (rather than removed, with no flag left to redo it)
const olderMissionKind: OperationKind = { kind: 'mission', admit: () => Promise.resolve(null), steps: [] };

/** Whether the admit refused the credit: the progress could not be marked done (taken by another, rejected). */
export const isCreditRefused = (error: unknown) => error instanceof AppError && error.code === REFUSED;

/** Whether a claim's operation was refused for want of a place (the mission's cap reached): nothing was changed. */
export const isMissionFull = (error: unknown) => error instanceof AppError && error.code === 'MISSION_FULL';

/**
 * Marks the progress done and credits its reward, once per progress however often it is called: `recorded` is true for the
 * one call that recorded it. The player's own doing: once admitted, a frozen or banned player's credit stays owed (the hold
 * is thrown). Throws a refusal (`isCreditRefused`) when the progress cannot be marked done, `MISSION_FULL` when a claim finds
 * no place.
 */
export function creditMission(credit: MissionCredit) {
  const { progress } = credit;
  const reward = BigInt(progress.reward);
  return runOperation({
    kind: MISSION_CREDIT,
    key: entryKeys.missionReward(progress._id),
    refType: 'UserMission',
    refId: String(progress._id),
    players: reward > 0n ? [{ user: progress.user, coin: progress.coin, amount: reward, reason: 'mission' }] : [],
    house: reward > 0n ? [{ account: 'rewards:mission', coin: progress.coin, amount: -reward }] : [],
    createdBy: credit.reviewedBy ?? null,
    data: { ...credit },
    guarded: true,
  });
}

/** Finishes the operation under this key if a crash left it unfinished; a hold keeps it owed. */
async function finishIfCutOff(key: string): Promise<void> {
  try {
    await finishOperation(key);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

/** Finishes the credit of a progress if a crash left it unfinished (a repeated claim). */
export const finishMissionCredit = (progressId: Types.ObjectId) => finishIfCutOff(entryKeys.missionReward(progressId));

/** The key of a progress's Go: one per progress. */
const startKeyOf = (progressId: Types.ObjectId) => `mission-start:${String(progressId)}`;

/** Finishes the Go that wrote this progress if a crash cut it off before its count (a repeated Go). */
export const finishMissionStart = (progressId: Types.ObjectId) => finishIfCutOff(startKeyOf(progressId));

/** Records and finishes one of the missions' operations that move no money, on one progress. */
function runProgressOperation(kind: string, key: string, progressId: Types.ObjectId, data: object) {
  const by = (data as { reviewedBy?: Types.ObjectId }).reviewedBy;
  return runOperation({
    ...{ kind, key, refType: 'UserMission', refId: String(progressId), players: [], house: [] },
    ...(by ? { createdBy: by } : {}),
    data: { ...data },
  });
}

/** A progress as a Go writes it: the player's, on the mission as it is (its reward and coin). */
type StartedProgress = Omit<CreditedProgress, 'day'> & { day: string | null };

interface MissionStart {
  progress: StartedProgress;
  at: Date;
}

/** Writes the progress started, or finds it written (by this Go, or done by a first claim of the same id). */
async function writeStarted(operation: { data?: unknown }): Promise<AppError | null> {
  const { progress, at } = operation.data as MissionStart;
  const { _id, user, mission, day, category, coin, reward } = progress;
  try {
    const written = await UserMissionModel.updateOne(
      { user, mission, day },
      { $setOnInsert: { _id, user, mission, day, category, coin, reward, status: 'started', startedAt: at } },
      { upsert: true, setDefaultsOnInsert: true },
    );
    if (written.upsertedCount) return null;
  } catch (error) {
    // real MongoDB: a simultaneous first Go or claim won the unique (user, mission, day) index
    if (!isDuplicateKey(error)) throw error;
  }
  // a record of another id (an older version's) was counted by whoever wrote it: nothing to count here
  return (await UserMissionModel.exists({ _id })) ? null : new AppError(REFUSED);
}

const missionStartKind = missionKind<MissionStart>('mission-start', writeStarted, ({ progress }) =>
  countMissionProgress(progress.user, progress._id, ['missionsCount']),
);

/**
 * A Go: writes the player's progress started and counts it in their missionsCount, once per progress (its key). The progress
 * a first claim writes done has the same id, and its count the same key: counted once either way.
 */
export async function startProgressOperation(progress: StartedProgress, at: Date): Promise<void> {
  try {
    await runProgressOperation('mission-start', startKeyOf(progress._id), progress._id, { progress, at });
  } catch (error) {
    // an older version's record was there: the caller reads it
    if (!isCreditRefused(error)) throw error;
  }
}

/** A Manual claim sent for review: the progress claimed (as started at `startedAt`), with its proof. */
interface MissionReview {
  progress: { _id: Types.ObjectId; user: Types.ObjectId; mission: Types.ObjectId; coin: Types.ObjectId; reward: number };
  startedAt: Date;
  at: Date;
  cap?: number | null;
  proof: { link: string; text: string; imageId: string };
}

/**
 * Whether this start of the progress (`startedAt`) has been claimed already: it is no longer started as it was (pending, or
 * decided since: a rejected one restarted has a new start). Only the operation keyed by that start claims it.
 */
async function claimedSince(progressId: Types.ObjectId, startedAt: Date): Promise<boolean> {
  const progress = await UserMissionModel.findById(progressId, { status: 1, startedAt: 1 }).lean();
  if (!progress) return false;
  return progress.startedAt?.getTime() !== new Date(startedAt).getTime() || progress.status !== 'started';
}

/** Takes the place and marks the progress pending, or finds this claim of it made; no place: `MISSION_FULL`. */
async function sendForReview(operation: { key: string; data?: unknown }): Promise<AppError | null> {
  const { progress, startedAt, at, cap, proof } = operation.data as MissionReview;
  if (!(await takePlace(progress.mission, operation.key, cap))) return new AppError('MISSION_FULL');
  const pending = await UserMissionModel.updateOne(
    { _id: progress._id, status: 'started', startedAt },
    { $set: { status: 'pending', claimedAt: at, reward: progress.reward, coin: progress.coin, proof } },
  );
  if (pending.modifiedCount || (await claimedSince(progress._id, startedAt))) return null;
  await undoPlace(progress.mission, operation.key);
  return new AppError(REFUSED);
}

const missionReviewKind: OperationKind = {
  kind: 'mission-review',
  admit: sendForReview,
  // nothing follows the admit; the step's record marks the operation done in the claim's own call (one with an admit and no
  // steps would be left for the sweep to finish)
  steps: [{ name: 'sent', run: () => Promise.resolve() }],
};

/** A start of a progress, as the keys of its review and its rejection name it. */
const startKey = (progressId: Types.ObjectId, startedAt: Date) => `${String(progressId)}:${new Date(startedAt).getTime()}`;

/**
 * Sends a Manual claim for review: its place taken, the progress pending. Throws `MISSION_FULL` (no place) or a refusal
 * (`isCreditRefused`: the progress is no longer started as it was), nothing changed. `recorded`: this call made the claim.
 */
export async function sendClaimForReview(review: MissionReview): Promise<{ recorded: boolean }> {
  const { _id } = review.progress;
  return runProgressOperation('mission-review', `mission-review:${startKey(_id, review.startedAt)}`, _id, review);
}

/** An operator's rejection of a claim waiting for review (the start it claimed), with the reason the player reads. */
interface MissionRejection {
  progress: { _id: Types.ObjectId; user: Types.ObjectId; mission: Types.ObjectId; claimedAt?: Date | null };
  startedAt: Date;
  at: Date;
  reviewedBy: Types.ObjectId;
  reason: { en: string; fa: string };
}

/** Marks the claim rejected (one decision stands: it must be pending and free for this reviewer), or finds it rejected. */
async function markRejected(operation: { data?: unknown }): Promise<AppError | null> {
  const { progress, startedAt, at, reviewedBy, reason } = operation.data as MissionRejection;
  const cleared = { firstApprovedBy: null, firstApprovedAt: null, ...UNLOCKED };
  const rejected = await UserMissionModel.updateOne(
    { _id: progress._id, status: 'pending', startedAt, ...freeFor(reviewedBy, at) },
    { $set: { status: 'rejected', reviewedBy, rejectReason: reason.en, rejectReasonFa: reason.fa, ...cleared } },
  );
  if (rejected.modifiedCount) return null;
  // rejected by this operation before a crash (and perhaps started again since: a new start)
  const now = await UserMissionModel.findById(progress._id, { status: 1, startedAt: 1 }).lean();
  const sameStart = now?.startedAt?.getTime() === new Date(startedAt).getTime();
  return now && ((sameStart && now.status === 'rejected') || !sameStart) ? null : new AppError(REFUSED);
}

/** Tells the player their claim was rejected, keyed by the claim, since the mission can be tried again. */
async function notifyRejected({ progress, reason }: MissionRejection) {
  const mission = await MissionModel.findById(progress.mission, { title: 1 }).lean();
  const claim = progress.claimedAt ? new Date(progress.claimedAt).getTime() : 0;
  await notify(progress.user, `mission-rejected:${String(progress._id)}:${claim}`, 'mission-rejected', {
    mission: mission?.title ?? '',
    missionId: String(progress.mission),
    reason: reason.en,
    ...(reason.fa ? { reasonFa: reason.fa } : {}),
  });
}

const missionRejectKind = missionKind<MissionRejection>('mission-reject', markRejected, async (rejection, key) => {
  await givePlaceBack(rejection.progress.mission, key);
  await notifyRejected(rejection);
});

/**
 * Rejects a claim waiting for review: the progress rejected, its place given back, the player told, each once. Throws a
 * refusal (`isCreditRefused`) when it is not pending, or another reviewer holds it; `recorded`: this call made the rejection.
 */
export async function rejectClaim(rejection: MissionRejection): Promise<{ recorded: boolean }> {
  const { _id } = rejection.progress;
  return runProgressOperation('mission-reject', `mission-reject:${startKey(_id, rejection.startedAt)}`, _id, rejection);
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const missionKinds: readonly OperationKind[] = [
  missionCreditKind,
  olderMissionKind,
  missionStartKind,
  missionReviewKind,
  missionRejectKind,
];
