import type { Job } from '../jobs/jobs.service';
import { rollUpAnalytics } from './analytics.service';
import { refreshLiveFigures, rollUpClosedDays } from './dashboard.service';

/**
 * The dashboard's figures: the live ones recounted every 30 s, and each day's (and its analytics') rolled up once, when it
 * has been over for an hour by the clock of the last finished pass of `recovery` (the job finishing what a crash
 * interrupted): an operation of that day a crash left half-done is then in the day's record, even after an outage.
 */
export function figuresJob(recovery: string): Job {
  return {
    name: 'figures',
    kind: 'housekeeping',
    intervalMs: 10_000,
    async run({ now, lastPass }) {
      const recovered = await lastPass(recovery);
      const upTo = recovered && recovered < now ? recovered : now;
      const daysRolledUp = recovered ? await rollUpClosedDays(upTo) : 0;
      const liveFigures = (await refreshLiveFigures(now, { force: daysRolledUp > 0 })) ? 1 : 0;
      return { daysRolledUp, liveFigures, analyticsDaysRolledUp: recovered ? await rollUpAnalytics(upTo) : 0 };
    },
  };
}
