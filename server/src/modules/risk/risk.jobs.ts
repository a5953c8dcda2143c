import type { Job } from '../jobs/jobs.service';
import { assessDuePlayers } from './risk.service';

/** Players whose records changed are scored again, oldest mark first, for at most a second a pass (200 players). */
export const riskScoringJob: Job = {
  name: 'risk-scoring',
  kind: 'housekeeping',
  run: async ({ now }) => ({ riskAssessed: await assessDuePlayers(now) }),
};
