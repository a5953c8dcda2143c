import type { JobStep } from '../jobs/jobs.service';
import { removeExpiredLoginCodes } from './loginCode.service';
import { backfillSearchFields } from './players.service';
import { reconcileHolds } from './playerStatus.service';

/** Holds a crash left out of line with the players' statuses (a freeze that stopped between the player and the ledger). */
export const holdRecovery: JobStep = { name: 'holds', run: ({ graceMs }) => reconcileHolds(graceMs) };

export const playerHousekeeping: readonly JobStep[] = [
  // what a TTL index removes on MongoDB and the embedded engine keeps for ever
  { name: 'expiredLoginCodes', run: ({ now }) => removeExpiredLoginCodes(now) },
  { name: 'searchFieldsFilled', run: () => backfillSearchFields() },
];
