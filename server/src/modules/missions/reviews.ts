import type { Types } from 'mongoose';
import { AppError, badInput, isHold } from '../../lib/errors';
import { findRejectReason } from '../config/rejectReasons.service';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { countTowardDailyLimit } from '../coins/coinBrakes.service';
import { objectId } from '../../db/ids';
import { UserMissionModel } from './mission.models';
import { creditMission, isCreditRefused, notifyApproved, rejectClaim } from './missions.kinds';
import { countEarlierCompletions } from './missionPlaces';
import { freeFor, refuseUnlessFree } from './reviewLocks';

/**
 * An operator approves (reward credited now) or rejects (the player may try again) a pending mission.
 * The conditional pending → done/rejected step decides, so an approval and a rejection arriving together cannot both
 * happen. Each is an operation of the money engine, recorded first, whose admit takes that step: an approval is the credit's
 * (`mission-credit`, under `entryKeys.missionReward`), so the credit is owed from the moment the claim is done; a rejection
 * (`mission-reject`) gives the claim's place back and tells the player in its step, each once.
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
  const reviewed = review.status === 'done' ? await approve(id, reviewedBy, now) : await reject(id, reviewedBy, reason!, now);
  if (!reviewed) {
    await refuseUnlessFree(id, reviewedBy, now);
    // taken and let go again in between: decided by someone else, or free to try again
    throw new AppError('CLAIM_LOCKED', { name: '?', until: now.toISOString().slice(11, 16) });
  }
  return reviewed;
}

/** The approval's credit (its operation marks the claim done); the claim as approved, or null when it was not this approval's. */
async function approve(id: Types.ObjectId, reviewedBy: Types.ObjectId, now: Date) {
  const claim = await UserMissionModel.findOne(
    { _id: id, status: 'pending' },
    { user: 1, mission: 1, day: 1, category: 1, coin: 1, reward: 1 },
  ).lean();
  if (!claim) return null;
  let recorded: boolean;
  try {
    ({ recorded } = await creditMission({ progress: claim, via: 'approval', at: now, reviewedBy }));
  } catch (error) {
    if (isCreditRefused(error)) return null;
    // a frozen or banned player's approval stands, its credit owed (paid once they are active); they are told now, that it is held
    if (!isHold(error)) throw error;
    const approved = await UserMissionModel.findOne({ _id: id, status: 'done', reviewedBy });
    if (approved) await notifyApproved({ progress: claim }, (error as AppError).code === 'ACCOUNT_BANNED' ? 'banned' : 'frozen');
    return approved;
  }
  // approved by this call (a concurrent approval recorded the operation first: theirs)
  return recorded ? UserMissionModel.findOne({ _id: id, status: 'done', reviewedBy }) : null;
}

/** The rejection's operation (it marks the claim rejected, then gives its place back); the claim as rejected, or null when it was not this rejection's. */
async function reject(id: Types.ObjectId, reviewedBy: Types.ObjectId, reason: { en: string; fa: string }, now: Date) {
  const claim = await UserMissionModel.findOne({ _id: id, status: 'pending' }, { user: 1, mission: 1, startedAt: 1, claimedAt: 1 }).lean();
  if (!claim) return null;
  // a claim from before its mission's counter: counted first, so the place given back is one counted
  await countEarlierCompletions(claim.mission);
  try {
    // rejected by this call (a concurrent rejection recorded the operation first: theirs)
    if (!(await rejectClaim({ progress: claim, startedAt: claim.startedAt, at: now, reviewedBy, reason })).recorded) return null;
  } catch (error) {
    if (isCreditRefused(error)) return null;
    throw error;
  }
  return UserMissionModel.findById(id);
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
