import { Router } from 'express';
import { z } from 'zod';
import { hotWalletThresholdInput } from '@gift/shared';
import { badInput } from '../../lib/errors';
import { operatorContext, requirePermission } from '../../http/adminAuth';
import { recordAudit } from '../audit/audit.service';
import { findCoin } from '../coins/giftCoins.service';
import { setPayoutsPaused, treasury } from './payouts.service';
import { setHotWalletThreshold } from './hotWallet.service';

const treasuryInput = z.object({ paused: z.boolean({ message: 'paused must be true or false' }) });

/**
 * The console's treasury, with the withdrawals permission (react-admin's getOne and update of `treasury`):
 * - GET /api/admin/treasury (and /treasury/treasury): the hot wallet, its balances per coin, today's payouts
 *   against each cap, what is owed, the batches in flight, and why payouts stopped when they did;
 * - PUT /api/admin/treasury/treasury `{ paused }`: the pause switch (withdrawals write), audited;
 * - PUT /api/admin/treasury/threshold `{ coin, below }`: below how much of a coin the hot wallet is low (withdrawals write), audited.
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
  router.put('/threshold', async (req, res) => {
    const parsed = hotWalletThresholdInput.safeParse(req.body);
    if (!parsed.success)
      throw badInput(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? 'below'), issue.message])));
    const { operator } = operatorContext(req);
    const coin = await findCoin(parsed.data.coin, { symbol: 1 });
    if (!coin) throw badInput({ coin: 'Unknown coin' });
    const { before, after } = await setHotWalletThreshold(parsed.data.coin, parsed.data.below, operator.id);
    await recordAudit({
      operator,
      action: 'update',
      resource: 'treasury',
      record: `threshold:${coin.symbol}`,
      before: { warnBelow: before },
      after: { warnBelow: after },
    });
    res.json(await treasury());
  });
  return router;
}
