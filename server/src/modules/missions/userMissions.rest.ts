import { userMissionReviewInput } from '@gift/shared';
import { AppError } from '../../lib/errors';
import type { ResourceDefinition } from '../../rest/resource';
import { UserMissionModel } from './mission.models';
import { reviewUserMission } from './missions.service';

/** Players' missions, read-only except the review of a pending Manual one (approve credits, reject lets them retry). */
export const userMissionsResource: ResourceDefinition<typeof userMissionReviewInput> = {
  name: 'user-missions',
  model: UserMissionModel,
  updateSchema: userMissionReviewInput,
  searchFields: ['status', 'rejectReason'],
  filters: { status: 'equals', user: 'objectId', mission: 'objectId', category: 'objectId' },
  sortable: ['status', 'claimedAt', 'doneAt', 'startedAt'],
  canDelete: false,
  update: (id, review, req) => {
    if (!req.account) throw new AppError('UNAUTHORIZED');
    return reviewUserMission(id, review, req.account.id, new Date());
  },
};
