import { Router } from 'express';
import { hasPermission } from '@gift/shared';
import { operatorContext } from '../../rest/adminAuth';
import { dashboardFigures } from './dashboard.service';

/** GET /api/admin/dashboard: every figure of the console's first page in one call. */
export function dashboardRouter(): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const { permissions } = operatorContext(req).operator;
    res.json(await dashboardFigures(new Date(), (resource) => hasPermission(permissions, resource, 'read')));
  });
  return router;
}
