import { UserMissionModel } from './mission.models';

/** Claims waiting for an operator's review: one count through the index on status. */
export function countClaimsWaiting(): Promise<number> {
  return UserMissionModel.countDocuments({ status: 'pending' });
}

/** Claims sent for review in [from, to) and still waiting: the new ones an alert summarises. */
export function countClaimsWaitingBetween(from: Date, to: Date): Promise<number> {
  return UserMissionModel.countDocuments({ status: 'pending', claimedAt: { $gte: from, $lt: to } });
}
