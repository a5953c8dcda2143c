import { Router } from 'express';
import { requirePermission } from '../../rest/adminAuth';
import { treasury } from './payouts.service';

/**
 * GET /api/admin/treasury (and /treasury/treasury, react-admin's getOne): the hot wallet, its balances per coin,
 * what is owed, batches in flight and the pause switch's state. Read with the withdrawals permission.
 */
export function treasuryRouter(): Router {
  const router = Router();
  router.use(requirePermission('withdraws'));
  router.get(['/', '/treasury'], async (_req, res) => {
    res.json(await treasury());
  });
  return router;
}
