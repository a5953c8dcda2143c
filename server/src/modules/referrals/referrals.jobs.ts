import type { Job, JobStep } from '../jobs/jobs.service';
import { qualifyReferrals, recoverReferrals } from './referrals.service';

/** Newcomers registered with a code whose referral (the invite counted, the reward) was not finished. */
export const referralRecovery: JobStep = { name: 'referrals', run: ({ graceMs }) => recoverReferrals(graceMs) };

/** Friends counted and waiting who now meet the rule earn their referrer the reward, once; and rewards held on risk, once cleared. */
export const referralQualificationJob: Job = {
  name: 'referral-qualification',
  kind: 'housekeeping',
  run: async () => ({ referralsQualified: await qualifyReferrals() }),
};
