import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { findRejectReason } from '../config/rejectReasons.service';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { countTowardDailyLimit } from '../coins/coinBrakes.service';
import { objectId } from '../../db/ids';
import { findCoin } from '../coins/giftCoins.service';
import { notify } from '../notifications/notifications.service';
import { MissionModel, UserMissionModel } from './mission.models';
import { creditApproval } from './missionCredit';
import { holdSeatForRelease, settleSeat } from './missionSeats';
import { freeFor, refuseUnlessFree, UNLOCKED } from './reviewLocks';

/**
 * An operator approves (reward credited now) or rejects (the player may try again) a pending mission.
 * The conditional pending → done/rejected step comes first so an approval and a rejection arriving
 * together cannot both happen; only the approval that wins it credits, under its key (`entryKeys.missionReward`).
 */
export async function reviewUserMission(
  userMissionId: string,
  review: { status: 'done' | 'rejected'; rejectReason?: string; reasonId?: string },
  reviewerId: string,
  now: Date,
) {
  const id = objectId(userMissionId);
  const reviewedBy = objectId(reviewerId);
  // another reviewer's hold refuses the decision before anything is counted or held (and the conditional step checks again)
  await refuseUnlessFree(id, reviewedBy, now);
  const reason = review.status === 'rejected' ? await rejectionText(review) : null;
  if (review.status === 'done') {
    const waiting = await waitForSecondApproval(id, reviewerId, now);
    if (waiting) return waiting;
  }
  const cleared = { firstApprovedBy: null, firstApprovedAt: null, ...UNLOCKED };
  const update =
    review.status === 'done'
      ? { status: 'done', doneAt: now, reviewedBy, rejectReason: '', rejectReasonFa: '', awaitingCredit: true, ...cleared }
      : { status: 'rejected', reviewedBy, rejectReason: reason?.en ?? '', rejectReasonFa: reason?.fa ?? '', seated: false, ...cleared };
  // a rejection gives its place back: held first, so a crash before the hold is settled cannot keep it counted
  const seat =
    review.status === 'rejected'
      ? await UserMissionModel.findOne({ _id: id, status: 'pending', seated: true }, { mission: 1 }).lean()
      : null;
  if (seat) await holdSeatForRelease(seat.mission, id, now);
  const reviewed = await UserMissionModel.findOneAndUpdate(
    { _id: id, status: 'pending', ...freeFor(reviewedBy, now) },
    { $set: update },
    { returnDocument: 'after' },
  );
  if (seat) await settleSeat(seat.mission, id);
  if (!reviewed) {
    await refuseUnlessFree(id, reviewedBy, now);
    // taken and let go again in between: decided by someone else, or free to try again
    throw new AppError('CLAIM_LOCKED', { name: '?', until: now.toISOString().slice(11, 16) });
  }
  if (review.status === 'done') await creditApproval(reviewed);
  await notifyReview(reviewed);
  return reviewed;
}

/**
 * One brake on Manual approvals: what a reviewer approves alone counts toward their daily limit in the reward's coin, and an
 * approval past it leaves the claim pending with this first approval, for a second, independent operator (returned). The
 * second approval is checked for independence and not counted: two people decided it. Null when the approval goes on.
 */
async function waitForSecondApproval(id: Types.ObjectId, reviewerId: string, now: Date) {
  const claim = await UserMissionModel.findOne(
    { _id: id, status: 'pending' },
    { reward: 1, coin: 1, firstApprovedBy: 1, claimedAt: 1 },
  ).lean();
  if (!claim || claim.reward <= 0) return null;
  if (claim.firstApprovedBy) {
    await assertIndependentApprover(String(claim.firstApprovedBy), reviewerId, 'this claim');
    return null;
  }
  // the claim's own key: a repeat of this approval counts once; a claim tried again after a rejection is a new one
  const key = `mission:${String(id)}:${claim.claimedAt?.getTime() ?? 0}`;
  if (await countTowardDailyLimit(reviewerId, claim.coin, BigInt(claim.reward as number), key, now)) return null;
  const waiting = await UserMissionModel.findOneAndUpdate(
    { _id: id, status: 'pending', firstApprovedBy: null, ...freeFor(objectId(reviewerId), now) },
    { $set: { firstApprovedBy: objectId(reviewerId), firstApprovedAt: now } },
    { returnDocument: 'after' },
  );
  if (waiting) return waiting;
  // another operator approved it first meanwhile: this is the second approval, if independent of theirs; decided: the
  // conditional step that follows answers as for any decided claim
  const first = await UserMissionModel.findOne({ _id: id, status: 'pending' }, { firstApprovedBy: 1 }).lean();
  if (first?.firstApprovedBy) await assertIndependentApprover(String(first.firstApprovedBy), reviewerId, 'this claim');
  return null;
}

/**
 * What the player reads of a rejection: one of App Config's canned reasons (its English and its Persian), else the reviewer's own
 * words (the same for every player). A reason no longer in App Config is refused (400), with nothing changed.
 */
async function rejectionText(review: { rejectReason?: string; reasonId?: string }): Promise<{ en: string; fa: string }> {
  if (!review.reasonId) return { en: review.rejectReason ?? '', fa: '' };
  const canned = await findRejectReason(review.reasonId);
  if (!canned) throw badInput({ reasonId: 'This reason is no longer in App Config: choose another, or write one' });
  return { en: canned.en, fa: canned.fa };
}

/** Tells the player how their claim was reviewed; a rejection is keyed by its claim, since the mission can be tried again. */
async function notifyReview(reviewed: {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  mission: Types.ObjectId;
  coin: Types.ObjectId;
  status: string;
  reward: number;
  rejectReason: string;
  rejectReasonFa?: string;
  claimedAt?: Date | null;
}) {
  const [mission, coin] = await Promise.all([
    MissionModel.findById(reviewed.mission, { title: 1 }).lean(),
    findCoin(reviewed.coin, { symbol: 1 }),
  ]);
  const title = mission?.title ?? '';
  if (reviewed.status === 'done') {
    const reward = reviewed.reward > 0 && coin ? { amount: fromMicros(reviewed.reward), symbol: coin.symbol } : {};
    await notify(reviewed.user, `mission-approved:${reviewed._id}`, 'mission-approved', { mission: title, ...reward });
  } else {
    const claim = reviewed.claimedAt?.getTime() ?? 0;
    await notify(reviewed.user, `mission-rejected:${reviewed._id}:${claim}`, 'mission-rejected', {
      mission: title,
      reason: reviewed.rejectReason,
      ...(reviewed.rejectReasonFa ? { reasonFa: reviewed.rejectReasonFa } : {}),
    });
  }
}
