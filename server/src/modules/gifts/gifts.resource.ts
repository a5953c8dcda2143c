import type { Request, Router } from 'express';
import { balanceAdjustmentInput, clawBackInput, rejectionInput } from '@gift/shared';
import { operatorContext, requirePermission } from '../../http/adminAuth';
import { clawBack } from '../clawbacks/clawBack.service';
import { validate, type ResourceDefinition } from '../../http/resource';
import { adjustBalance, approveGift, rejectGift } from './balanceAdjustment.service';
import { GiftApprovalModel } from './giftApproval.model';

/**
 * A player's gifts, corrections and claw-backs, on the player's own resource (`/users/:id/adjustments`, `/users/:id/claw-backs`,
 * mounted there by the composition root): they move money, so they need the `gifts` permission, apart from `users:write`.
 */
export function playerMoneyDoors(router: Router) {
  /** A gift or correction through the ledger; the same key twice adjusts once; above the coin's threshold it waits for a second operator (202). */
  router.post('/:id/adjustments', requirePermission('gifts'), async (req: Request<{ id: string }>, res) => {
    const input = validate(balanceAdjustmentInput, req.body);
    const result = await adjustBalance(req.params.id, input, operatorContext(req).operator);
    res.status(result.pending ? 202 : result.applied ? 201 : 200).json(result);
  });
  /** Takes back one credit (a mistaken approval, a farm's reward) with a reason: what the balance covers now, the rest owed. */
  router.post('/:id/claw-backs', requirePermission('gifts'), async (req: Request<{ id: string }>, res) => {
    const input = validate(clawBackInput, req.body);
    res.status(201).json(await clawBack(req.params.id, input, operatorContext(req).operator));
  });
}

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
