import type { Router } from 'express';
import { rejectionInput } from '@gift/shared';
import { operatorContext } from '../../http/adminAuth';
import { validate, type ResourceDefinition } from '../../http/resource';
import { AccountGrantModel } from './accountGrant.model';
import { approveGrant, rejectGrant } from './accountGrants.service';

function decisionRoutes(router: Router) {
  /** A second, independent operator holding the access approves: the account holds it at once. */
  router.post('/:id/approve', async (req, res) => {
    res.json(await approveGrant(req.params.id, operatorContext(req).operator, new Date()));
  });
  /** Turned down, with the reason (the operator who asked may withdraw their own). */
  router.post('/:id/reject', async (req, res) => {
    const { rejectReason } = validate(rejectionInput, req.body);
    res.json(await rejectGrant(req.params.id, operatorContext(req).operator, rejectReason, new Date()));
  });
}

/**
 * Money permissions asked for operators' accounts, waiting for a second operator (opened by `accounts`: read to list,
 * write to decide): listed newest first, filtered by status, account or the operator who asked.
 */
export const accountGrantsResource: ResourceDefinition = {
  name: 'account-grants',
  permission: 'accounts',
  model: AccountGrantModel,
  list: {
    searchFields: ['username'],
    filters: { status: 'equals', account: 'objectId', requestedBy: 'objectId' },
    sortable: ['username'],
  },
  remove: { refusal: 'a decided request is kept as it was; reject one that waits' },
  extraRoutes: decisionRoutes,
};
