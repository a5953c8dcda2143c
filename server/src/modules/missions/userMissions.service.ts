import { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import type { UserMissionModel } from './mission.models';
import { presentLock } from './reviewLocks';

type ProgressDocument = ReturnType<(typeof UserMissionModel)['hydrate']>;
/** Populated: a document; its target deleted: the bare ObjectId, whose `_id` (a mongoose getter) is itself. */
type Named = { _id: Types.ObjectId; symbol?: string; username?: string } | null | undefined;

/** POST /user-missions/bulk-review: the ids reviewed, and why each other one was not changed. */
export interface BulkReviewAnswer {
  reviewed: string[];
  /** Approved, and waiting for a second operator: past the reviewer's daily limit (present when any does). */
  waiting?: string[];
  refused: Record<string, string>;
}

/** A player's progress on one mission as the console lists and reviews it: the reward with its coin, and who reviewed it. */
export function presentProgress(doc: unknown) {
  const progress = doc as ProgressDocument;
  const { coin, reviewedBy } = doc as { coin?: Named; reviewedBy?: Named };
  const idOf = (ref: Named) => (ref ? String(ref._id) : null);
  // the player, with their risk as last assessed when the list loaded it (a review is a decision on money)
  const player = progress.user as unknown as Types.ObjectId | { _id: Types.ObjectId; risk?: { score: number; level: string } };
  return {
    id: String(progress._id),
    user: String(player instanceof Types.ObjectId ? player : player._id),
    ...(!(player instanceof Types.ObjectId) && player.risk ? { playerRisk: { score: player.risk.score, level: player.risk.level } } : {}),
    mission: String(progress.mission),
    category: String(progress.category),
    status: progress.status,
    startedAt: progress.startedAt,
    claimedAt: progress.claimedAt,
    doneAt: progress.doneAt,
    reward: fromMicros(progress.reward as number),
    coin: idOf(coin),
    coinSymbol: coin?.symbol ?? '',
    rejectReason: progress.rejectReason,
    /** A canned reason's Persian, as a Persian player reads it (blank: they read `rejectReason`). */
    rejectReasonFa: progress.rejectReasonFa ?? '',
    /** The reviewer who has it open, while their hold lasts: another reviewer's decision is refused (409) until then. */
    ...presentLock(progress),
    /** What the player attached to the claim; the picture is read at /api/admin/proofs/:imageId by an operator who reviews. */
    proof: {
      link: progress.proof?.link ?? '',
      text: progress.proof?.text ?? '',
      imageId: progress.proof?.imageId ?? '',
    },
    reviewedBy: idOf(reviewedBy),
    /** Approved once past that operator's daily limit: pending until a second, independent operator approves it too. */
    firstApprovedBy: progress.firstApprovedBy ? String(progress.firstApprovedBy) : null,
    firstApprovedAt: progress.firstApprovedAt ?? null,
    reviewerName: reviewedBy?.username ?? '',
    createdAt: progress.createdAt,
    updatedAt: progress.updatedAt,
  };
}
