import { Router } from 'express';
import { alertLinkInput, alertPreferencesInput } from '@gift/shared';
import { badInput } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { alertCounts, alertSettings, setAlertPreferences, startAlertLink, unlinkAlerts } from './alerts.service';

/** A zod refusal as the console's field errors. */
function refused(issues: Array<{ path: PropertyKey[]; message: string }>) {
  return badInput(Object.fromEntries(issues.map((issue) => [String(issue.path[0] ?? 'kinds'), issue.message])));
}

/**
 * The operator's alerts, for every signed-in operator (each sees and sets only their own):
 * - GET /api/admin/alerts/counts: the menu's badges (claims waiting review, withdrawals to decide, gifts, access and brake
 *   changes waiting for them, payouts stopped), each only where their permissions reach;
 * - GET /api/admin/alerts/me, PUT /api/admin/alerts/me `{ kinds, language? }`: what the bot tells them;
 * - POST /api/admin/alerts/me/link `{ language }`: a one-time link to the bot; DELETE /api/admin/alerts/me/link: unlink.
 */
export function alertsRouter(): Router {
  const router = Router();
  router.get('/counts', async (req, res) => {
    res.json(await alertCounts(operatorContext(req).operator, new Date()));
  });
  router.get('/me', async (req, res) => {
    res.json(await alertSettings(operatorContext(req).operator));
  });
  router.put('/me', async (req, res) => {
    const { operator } = operatorContext(req);
    const parsed = alertPreferencesInput.safeParse(req.body);
    if (!parsed.success) throw refused(parsed.error.issues);
    await setAlertPreferences(operator.id, parsed.data.kinds, parsed.data.language);
    res.json(await alertSettings(operator));
  });
  router.post('/me/link', async (req, res) => {
    const parsed = alertLinkInput.safeParse(req.body ?? {});
    if (!parsed.success) throw refused(parsed.error.issues);
    res.json(await startAlertLink(operatorContext(req).operator.id, parsed.data.language, new Date()));
  });
  router.delete('/me/link', async (req, res) => {
    const { operator } = operatorContext(req);
    await unlinkAlerts(operator.id);
    res.json(await alertSettings(operator));
  });
  return router;
}
