import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { entryKeys, finishOperation, runOperation, type OperationKind } from '../ledger/ledger.service';
import { findCoin } from '../coins/giftCoins.service';
import { notify } from '../notifications/notifications.service';
import { countMissionProgress } from '../users/players.service';
import { MissionModel, UserMissionModel } from './mission.models';
import { freeFor, UNLOCKED } from './reviewLocks';
import { countStreakDay } from './streaks';

/**
 * A mission's reward, as a kind of the money engine (ledger/engine.ts): `mission-credit`, one per player's progress (keyed
 * `mission:<progressId>`, as the credit was before the engine). The operation is recorded first, so it is what owes the
 * credit; its admit check then marks the progress done, the state the player sees (a claim: started → done, or a first
 * claim's progress written done at once; an operator's approval: pending → done), one conditional write, so of simultaneous
 * claims or approvals one takes it. The engine credits the player from `rewards:mission`, and the step counts the progress in
 * the player's counters (doneMissionsCount, and missionsCount for a record not counted since its Go) and a daily mission's day
 * in the streak (its milestone keyed), and tells the player of an operator's approval. A progress done has had its operation recorded: it carries no flag of credit owed, and
 * a crash anywhere is finished by a retry or the engine's sweep. A frozen or banned player's credit, admitted before their
 * hold, stays owed and is paid once they are active. The places of a capped mission are still settled by their holds
 * (`missionSeats.ts`), around the operation. Registered at the composition root (server/src/moneyKinds.ts).
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
   * How the admit marks it done: `first`, a first claim's progress written done (and seated) at once; `claim`, a started
   * one; `approval`, a pending one an operator approves; `done`, one an older version left done with its credit owed.
   */
  via: 'first' | 'claim' | 'approval' | 'done';
  /** When it was claimed or approved. */
  at: Date;
  reviewedBy?: Types.ObjectId | null;
  /** Not yet counted in missionsCount (a first claim's record, or one whose Go a crash left uncounted): counted with it. */
  uncounted: boolean;
  /** A first claim marks the player's risk score due in the same write as the counts. */
  markRiskDueAt?: Date | null;
}

const REFUSED = 'UNAVAILABLE';

/** Marks the progress done for this operation, or finds it done (only this key credits a progress); anything else: refused. */
async function markDone(operation: { data?: unknown }): Promise<AppError | null> {
  const { progress, via, at, reviewedBy } = operation.data as MissionCredit;
  const { _id, user, mission, day = null, category, coin, reward } = progress;
  if (via === 'first') {
    try {
      const written = await UserMissionModel.updateOne(
        { user, mission, day },
        {
          $setOnInsert: {
            ...{ _id, user, mission, day, category, coin, reward },
            ...{ status: 'done', startedAt: at, claimedAt: at, doneAt: at, seated: true },
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
    // not if its place was given back meanwhile (the claim was slow enough for the sweep to settle its hold)
    const taken = await UserMissionModel.updateOne(
      { _id, status: 'started', seatReleased: { $ne: true } },
      { $set: { status: 'done', claimedAt: at, doneAt: at, reward, coin, seated: true } },
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
  return (await UserMissionModel.exists({ _id, status: 'done' })) ? null : new AppError(REFUSED);
}

/** The counts that follow a credit, each keyed by the progress (so a repeat counts nothing more). */
export async function countCredited({ progress, uncounted, markRiskDueAt, via }: MissionCredit): Promise<void> {
  const counters = uncounted ? (['missionsCount', 'doneMissionsCount'] as const) : (['doneMissionsCount'] as const);
  await countMissionProgress(progress.user, progress._id, [...counters], markRiskDueAt ?? undefined);
  // a record its Go created and a crash left uncounted: counted now, its flag goes
  if (uncounted && via !== 'first') await UserMissionModel.updateOne({ _id: progress._id, uncounted: true }, { $unset: { uncounted: 1 } });
  await countStreakDay(progress);
}

/** Tells the player an operator approved their claim, with its reward (keyed by the claim: once). */
async function notifyApproved({ progress }: MissionCredit): Promise<void> {
  const [mission, coin] = await Promise.all([
    MissionModel.findById(progress.mission, { title: 1 }).lean(),
    findCoin(progress.coin, { symbol: 1 }),
  ]);
  const reward = progress.reward > 0 && coin ? { amount: fromMicros(progress.reward), symbol: coin.symbol } : {};
  await notify(progress.user, `mission-approved:${String(progress._id)}`, 'mission-approved', { mission: mission?.title ?? '', ...reward });
}

const missionCreditKind: OperationKind = {
  kind: MISSION_CREDIT,
  admit: markDone,
  // one step (each step's record is a write on the claim's hot path): the counts, a daily mission's streak day, and an
  // approval's word to the player, each keyed
  steps: [
    {
      name: 'follow-up',
      run: async (operation) => {
        const credit = operation.data as MissionCredit;
        await countCredited(credit);
        if (credit.via === 'approval') await notifyApproved(credit);
      },
    },
  ],
};
// an older version recorded the credit under the reason's kind, after marking the progress done: admitted as it is, so one
// its player's hold refuses stays owed as this kind's do (rather than removed, with no flag left to redo it)
const olderMissionKind: OperationKind = { kind: 'mission', admit: () => Promise.resolve(null), steps: [] };

/** Whether the admit refused the credit: the progress could not be marked done (taken by another, released, rejected). */
export const isCreditRefused = (error: unknown) => error instanceof AppError && error.code === REFUSED;

/**
 * Marks the progress done and credits its reward, once per progress however often it is called: `recorded` is true for the
 * one call that recorded it. The player's own doing: once admitted, a frozen or banned player's credit stays owed (the hold
 * is thrown). Throws a refusal (`isCreditRefused`) when the progress cannot be marked done.
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

/** Finishes the credit of a progress if a crash left it unfinished (a repeated claim); a hold keeps it owed. */
export async function finishMissionCredit(progressId: Types.ObjectId): Promise<void> {
  try {
    await finishOperation(entryKeys.missionReward(progressId));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const missionKinds: readonly OperationKind[] = [missionCreditKind, olderMissionKind];
