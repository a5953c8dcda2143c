import type { Job } from '../jobs/jobs.service';
import { collectOwed } from './clawBack.service';

/** Claw-backs still owed take what the players' balances now cover (a payout waits while its player owes one). */
export const clawBacksJob: Job = {
  name: 'claw-backs',
  kind: 'housekeeping',
  run: async () => ({ clawBacksSettled: await collectOwed() }),
};
