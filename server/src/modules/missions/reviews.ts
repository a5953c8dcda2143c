import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { objectId } from '../../db/ids';
import { findGiftCoin } from '../coins/giftCoins.service';
import { notify } from '../notifications/notifications.service';
import { MissionModel, UserMissionModel } from './mission.models';
import { creditApproval } from './missionCredit';
import { holdSeatForRelease, settleSeat } from './missionSeats';

/**
 * An operator approves (reward credited now) or rejects (the player may try again) a pending mission.
 * The conditional pending → done/rejected step comes first so an approval and a rejection arriving
 * together cannot both happen; only the approval that wins it credits, under its key (`entryKeys.missionReward`).
 */
export async function reviewUserMission(
  userMissionId: string,
  review: { status: 'done' | 'rejected'; rejectReason?: string },
  reviewerId: string,
  now: Date,
) {
  const id = objectId(userMissionId);
  const reviewedBy = objectId(reviewerId);
  const update =
    review.status === 'done'
      ? { status: 'done', doneAt: now, reviewedBy, rejectReason: '', awaitingCredit: true }
      : { status: 'rejected', reviewedBy, rejectReason: review.rejectReason ?? '', seated: false };
  // a rejection gives its place back: held first, so a crash before the hold is settled cannot keep it counted
  const seat =
    review.status === 'rejected'
      ? await UserMissionModel.findOne({ _id: id, status: 'pending', seated: true }, { mission: 1 }).lean()
      : null;
  if (seat) await holdSeatForRelease(seat.mission, id, now);
  const reviewed = await UserMissionModel.findOneAndUpdate({ _id: id, status: 'pending' }, { $set: update }, { returnDocument: 'after' });
  if (seat) await settleSeat(seat.mission, id);
  if (!reviewed) {
    const current = await UserMissionModel.findById(id, { status: 1 }).lean();
    if (!current) throw new AppError('NOT_FOUND');
    throw new AppError('MISSION_NOT_PENDING', { status: current.status });
  }
  if (review.status === 'done') await creditApproval(reviewed);
  await notifyReview(reviewed);
  return reviewed;
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
  claimedAt?: Date | null;
}) {
  const [mission, coin] = await Promise.all([
    MissionModel.findById(reviewed.mission, { title: 1 }).lean(),
    findGiftCoin(reviewed.coin, { symbol: 1 }),
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
    });
  }
}
