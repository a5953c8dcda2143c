import { jobOfSteps } from '../jobs/jobs.service';
import { reconcileStarPayments } from './starsReconcile.service';

/**
 * The shop's job: Telegram's record of Star payments read against the purchases, so a payment the bot never received is
 * granted once (starsReconcile.service.ts). Safe run twice, or on two instances at once.
 */
export const shopJob = jobOfSteps({ name: 'stars-reconcile', kind: 'housekeeping', intervalMs: 60_000 }, [
  { name: 'starPaymentsGranted', run: ({ now, logger }) => reconcileStarPayments(now, logger) },
]);
