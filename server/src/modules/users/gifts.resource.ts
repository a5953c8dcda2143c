import type { Router } from 'express';
import { rejectionInput } from '@gift/shared';
import { operatorContext } from '../../http/adminAuth';
import { validate, type ResourceDefinition } from '../../http/resource';
import { approveGift, rejectGift } from './balanceAdjustment.service';
import { GiftApprovalModel } from './giftApproval.model';

function decisionRoutes(router: Router) {
  /** A second operator approves: the gift is posted through the ledger at once. */
  router.post('/:id/approve', async (req, res) => {
    res.json(await approveGift(req.params.id, operatorContext(req).operator, new Date()));
  });
  /** Turned down, with the reason (the operator who asked may withdraw their own). */
  router.post('/:id/reject', async (req, res) => {
    const { rejectReason } = validate(rejectionInput, req.body);
    res.json(await rejectGift(req.params.id, operatorContext(req).operator, rejectReason, new Date()));
  });
}

/**
 * Gifts and corrections above their coin's threshold, waiting for a second operator (`gifts` permission): listed newest first,
 * filtered by status, player, coin or the operator who asked; decided by approve or reject. Asked for on the player's page.
 */
export const giftsResource: ResourceDefinition = {
  name: 'gifts',
  model: GiftApprovalModel,
  list: {
    filters: { status: 'equals', user: 'objectId', coin: 'objectId', requestedBy: 'objectId' },
    sortable: ['amount'],
  },
  remove: { refusal: 'a decided gift is kept as it was; reject one that waits' },
  extraRoutes: decisionRoutes,
};
