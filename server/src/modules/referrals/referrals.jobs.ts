import type { Job, JobStep } from '../jobs/jobs.service';
import { finishReferralsOfOlderVersion, qualifyReferrals } from './referrals.service';

/**
 * Newcomers an older version registered with a code and left 'pending', finished once (a join's referral is an operation of
 * the engine now, finished with the others).
 */
export const referralsOfOlderVersion: JobStep = {
  name: 'referralsOfOlderVersion',
  run: ({ graceMs }) => finishReferralsOfOlderVersion(graceMs).then(() => 0),
};

/** Friends counted and waiting who now meet the rule earn their referrer the reward, once; and rewards held on risk, once cleared. */
export const referralQualificationJob: Job = {
  name: 'referral-qualification',
  kind: 'housekeeping',
  run: async () => ({ referralsQualified: await qualifyReferrals() }),
};
