import { Router } from 'express';
import { analyticsInput, dashboardRangeInput, hasPermission } from '@gift/shared';
import { operatorContext } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { dashboardFigures } from './dashboard.service';
import { analyticsFigures } from './analytics.service';

/**
 * GET /api/admin/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD: every figure of the console's first page in one call, the
 * chart and the period's totals over the range (by default the 30 days ending today), beside the period before it.
 */
export function dashboardRouter(): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const { permissions } = operatorContext(req).operator;
    const range = validate(dashboardRangeInput, { from: req.query.from, to: req.query.to });
    res.json(
      await dashboardFigures(
        new Date(),
        (resource) => hasPermission(permissions, resource, 'read'),
        range,
        (resource) => hasPermission(permissions, resource, 'write'),
      ),
    );
  });
  /**
   * GET /api/admin/dashboard/analytics?from&to&sort&mission: each mission's funnel and cost, retention by join cohort and the
   * referrers' quality over the range, read from the rolled-up days.
   */
  router.get('/analytics', async (req, res) => {
    const { permissions } = operatorContext(req).operator;
    const range = validate(dashboardRangeInput, { from: req.query.from, to: req.query.to });
    const query = validate(analyticsInput, { sort: req.query.sort, mission: req.query.mission });
    res.json(await analyticsFigures(new Date(), (resource) => hasPermission(permissions, resource, 'read'), range, query));
  });
  return router;
}
