import type { JobStep } from '../jobs/jobs.service';
import { removeExpiredLoginCodes } from './loginCode.service';
import { backfillSearchFields } from './players.service';

export const playerHousekeeping: readonly JobStep[] = [
  // what a TTL index removes on MongoDB and the embedded engine keeps for ever
  { name: 'expiredLoginCodes', run: ({ now }) => removeExpiredLoginCodes(now) },
  { name: 'searchFieldsFilled', run: () => backfillSearchFields() },
];
