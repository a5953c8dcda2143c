import type { JobStep } from '../jobs/jobs.service';
import { recoverApprovedGifts, recoverGiftAudits } from './balanceAdjustment.service';

/**
 * Gifts approved but not yet posted, then gifts posted but not yet audited: an approved gift is posted (and audited as its
 * approver's) before the audit step would name the operator who asked.
 */
export const giftRecovery: readonly JobStep[] = [
  { name: 'approvedGifts', run: ({ graceMs }) => recoverApprovedGifts(graceMs) },
  { name: 'giftAudits', run: ({ graceMs }) => recoverGiftAudits(graceMs) },
];
