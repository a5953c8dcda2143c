import { Router } from 'express';
import { OBJECT_ID_PATTERN } from '@gift/shared';
import { badInput } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { clearPlayerRisk } from './risk.service';

/**
 * /api/admin/risk (`users:write`, as a freeze or a ban): POST /:id/clear lets a player's referral rewards go after an operator
 * looked at their risk; what waited on it is paid at once (issue 32, item 4).
 */
export function riskConsoleRouter(): Router {
  const router = Router();
  router.param('id', (_req, _res, next, value: string) => next(OBJECT_ID_PATTERN.test(value) ? undefined : badInput({ id: 'Invalid id' })));
  router.post('/:id/clear', async (req, res) => {
    res.json(await clearPlayerRisk(req.params.id, operatorContext(req).operator));
  });
  return router;
}
