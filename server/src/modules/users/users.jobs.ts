import type { Job, JobStep } from '../jobs/jobs.service';
import { recoverApprovedGifts, recoverGiftAudits } from './balanceAdjustment.service';
import { collectOwed } from './clawBack.service';
import { removeExpiredLoginCodes } from './loginCode.service';
import { backfillSearchFields } from './players.service';
import { reconcileHolds } from './playerStatus.service';

/**
 * Gifts approved but not yet posted, then gifts posted but not yet audited: an approved gift is posted (and audited as its
 * approver's) before the audit step would name the operator who asked.
 */
export const giftRecovery: readonly JobStep[] = [
  { name: 'approvedGifts', run: ({ graceMs }) => recoverApprovedGifts(graceMs) },
  { name: 'giftAudits', run: ({ graceMs }) => recoverGiftAudits(graceMs) },
];

/** Holds a crash left out of line with the players' statuses (a freeze that stopped between the player and the ledger). */
export const holdRecovery: JobStep = { name: 'holds', run: ({ graceMs }) => reconcileHolds(graceMs) };

export const playerHousekeeping: readonly JobStep[] = [
  // what a TTL index removes on MongoDB and the embedded engine keeps for ever
  { name: 'expiredLoginCodes', run: ({ now }) => removeExpiredLoginCodes(now) },
  { name: 'searchFieldsFilled', run: () => backfillSearchFields() },
];

/** Claw-backs still owed take what the players' balances now cover (a payout waits while its player owes one). */
export const clawBacksJob: Job = {
  name: 'claw-backs',
  kind: 'housekeeping',
  run: async () => ({ clawBacksSettled: await collectOwed() }),
};
