import { userMissionBulkReviewInput, userMissionReviewInput } from '@gift/shared';
import type { Router } from 'express';
import { operatorContext } from '../../http/adminAuth';
import { validate, type ResourceDefinition } from '../../http/resource';
import { recordAudit } from '../audit/audit.service';
import { playerIdsMatching } from '../users/players.service';
import { UserMissionModel } from './mission.models';
import { missionIdsMatching, reviewUserMission } from './missions.service';
import { cannedRejectReasons } from '../config/rejectReasons.service';
import { presentProgress, type BulkReviewAnswer } from './userMissions.service';
import { lockClaim, releaseClaim } from './reviewLocks';

/** One review decision per record, each through the same service call as a single review, each audited. */
function bulkReviewRoute(router: Router) {
  router.post('/bulk-review', async (req, res) => {
    const { ids, ...review } = validate(userMissionBulkReviewInput, req.body);
    const { operator } = operatorContext(req);
    const reviewed: string[] = [];
    const waiting: string[] = [];
    const refused: Record<string, string> = {};
    for (const id of [...new Set(ids)]) {
      const before = await UserMissionModel.findById(id);
      try {
        const after = await reviewUserMission(id, review, operator.id, new Date());
        await recordAudit({
          operator,
          action: 'review',
          resource: 'user-missions',
          record: id,
          before: before?.toJSON(),
          after: after.toJSON(),
        });
        // an approval past the reviewer's daily limit leaves the claim pending for a second operator
        (review.status === 'done' && after.status === 'pending' ? waiting : reviewed).push(id);
      } catch (error) {
        refused[id] = error instanceof Error ? error.message : 'Failed';
      }
    }
    res.json({ reviewed, ...(waiting.length ? { waiting } : {}), refused } satisfies BulkReviewAnswer);
  });
}

/**
 * The reasons a reviewer picks from (GET /reject-reasons). A reviewer's hold on the pending claim they opened: POST takes or renews it (409 naming another reviewer who holds it), DELETE
 * lets it go (only the reviewer's own). Answers the hold: `{ lockedBy, lockedByName, lockedUntil }`.
 */
function reviewerRoutes(router: Router) {
  /** App Config's canned reasons, read by any reviewer (App Config itself is not theirs to read). */
  router.get('/reject-reasons', async (_req, res) => {
    res.json(await cannedRejectReasons());
  });
  router.post('/:id/lock', async (req, res) => {
    res.json(await lockClaim(req.params.id, operatorContext(req).operator, new Date()));
  });
  router.delete('/:id/lock', async (req, res) => {
    await releaseClaim(req.params.id, operatorContext(req).operator.id);
    res.json({ lockedBy: null, lockedByName: '', lockedUntil: null });
  });
}

/** Players' missions, read-only except the review of a pending Manual one (approve credits, reject lets them retry). */
export const userMissionsResource: ResourceDefinition<typeof userMissionReviewInput> = {
  name: 'user-missions',
  model: UserMissionModel,
  list: {
    searchReferences: { user: playerIdsMatching, mission: missionIdsMatching },
    filters: { status: 'equals', user: 'objectId', mission: 'objectId', category: 'objectId', coin: 'objectId' },
    sortable: ['status', 'claimedAt', 'doneAt', 'startedAt'],
  },
  record: {
    // a reward is shown with its coin ('5 GIFT') without a lookup per row
    populate: [
      { path: 'coin', select: 'symbol' },
      { path: 'user', select: 'risk.score risk.level' },
      { path: 'reviewedBy', select: 'username' },
    ],
    present: presentProgress,
  },
  update: {
    schema: userMissionReviewInput,
    run: (id, review, { operator }) => reviewUserMission(id, review, operator.id, new Date()),
    auditAs: 'review',
  },
  remove: { refusal: "a player's progress stays with them; reject a pending review instead" },
  extraRoutes: (router) => {
    bulkReviewRoute(router);
    reviewerRoutes(router);
  },
};
