import { Router } from 'express';
import { clusterCleanUpInput, clusterCleanUpPreviewInput, OBJECT_ID_PATTERN } from '@gift/shared';
import { badInput } from '../../lib/errors';
import { operatorContext, requirePermission } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { cleanUpCluster, previewCleanUp } from '../users/clusterCleanUp.service';
import { clearPlayerRisk, walletsOf } from './risk.service';

/**
 * /api/admin/risk (`users:write`, as a freeze or a ban): POST /:id/clear lets a player's referral rewards go after an operator
 * looked at their risk; what waited on it is paid at once (issue 32, item 4). POST /clean-up/preview and /clean-up ban a
 * cluster and take back what it earned (issue 34, item 7): claw-backs, so `gifts:write` as well. GET /:id/wallets: the
 * player's wallets in the form wallets show them (`users:read`).
 */
export function riskConsoleRouter(): Router {
  const router = Router();
  router.param('id', (_req, _res, next, value: string) => next(OBJECT_ID_PATTERN.test(value) ? undefined : badInput({ id: 'Invalid id' })));
  router.post('/clean-up/preview', requirePermission('gifts'), async (req, res) => {
    res.json(await previewCleanUp(validate(clusterCleanUpPreviewInput, req.body).cluster));
  });
  router.post('/clean-up', requirePermission('gifts'), async (req, res) => {
    res.json(await cleanUpCluster(validate(clusterCleanUpInput, req.body), operatorContext(req).operator));
  });
  router.get('/:id/wallets', async (req, res) => {
    res.json(await walletsOf(req.params.id));
  });
  router.post('/:id/clear', async (req, res) => {
    res.json(await clearPlayerRisk(req.params.id, operatorContext(req).operator));
  });
  return router;
}
