import type { Job } from '../jobs/jobs.service';
import { rollUpAnalytics } from './analytics.service';
import { refreshLiveFigures, rollUpClosedDays } from './dashboard.service';

/**
 * The dashboard's figures: each day rolled up once it has been over for an hour (an operation a crash interrupted is
 * finished by the money recovery within seconds), the live ones recounted every 30 s, and the analytics by the same rule.
 */
export const figuresJob: Job = {
  name: 'figures',
  kind: 'housekeeping',
  intervalMs: 10_000,
  async run({ now }) {
    const daysRolledUp = await rollUpClosedDays(now);
    const liveFigures = (await refreshLiveFigures(now, { force: daysRolledUp > 0 })) ? 1 : 0;
    return { daysRolledUp, liveFigures, analyticsDaysRolledUp: await rollUpAnalytics(now) };
  },
};
