import { Router } from 'express';
import { z } from 'zod';
import { badInput } from '../../lib/errors';
import { operatorContext, requirePermission } from '../../http/adminAuth';
import { recordAudit } from '../audit/audit.service';
import { setPayoutsPaused, treasury } from './payouts.service';

const treasuryInput = z.object({ paused: z.boolean({ message: 'paused must be true or false' }) });

/**
 * The console's treasury, with the withdrawals permission (react-admin's getOne and update of `treasury`):
 * - GET /api/admin/treasury (and /treasury/treasury): the hot wallet, its balances per coin, today's payouts
 *   against each cap, what is owed, the batches in flight, and why payouts stopped when they did;
 * - PUT /api/admin/treasury/treasury `{ paused }`: the pause switch (withdrawals write), audited.
 */
export function treasuryRouter(): Router {
  const router = Router();
  router.use(requirePermission('withdraws'));
  router.get(['/', '/treasury'], async (_req, res) => {
    res.json(await treasury());
  });
  router.put(['/', '/treasury'], async (req, res) => {
    const parsed = treasuryInput.safeParse(req.body);
    if (!parsed.success) throw badInput({ paused: parsed.error.issues[0]?.message ?? 'Invalid' });
    const before = await treasury();
    await setPayoutsPaused(parsed.data.paused);
    const after = await treasury();
    await recordAudit({
      operator: operatorContext(req).operator,
      action: 'update',
      resource: 'treasury',
      record: 'treasury',
      before: { paused: before.paused },
      after: { paused: after.paused },
    });
    res.json(after);
  });
  return router;
}
