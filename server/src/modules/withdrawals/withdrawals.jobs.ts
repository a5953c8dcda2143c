import type { Job, JobStep } from '../jobs/jobs.service';
import { finishStatusChanges } from '../users/playerStatus.service';
import { runPayoutRound } from './payouts.service';
import { finishWithdrawalsOfOlderVersion } from './withdrawals.service';

/** What an older version left half done (once); requests and decisions are operations of the engine, finished with the others. */
export const withdrawalRecovery: JobStep = { name: 'withdrawalsOfOlderVersion', run: () => finishWithdrawalsOfOlderVersion() };

/**
 * The hot wallet's sender, on the one instance holding its lease: the open batch first (a dead holder's is confirmed,
 * refunded, re-queued or re-sent at once), then the status changes a crash left half done finished (the ledger's hold set as
 * the player's status says), so no new batch pays a player frozen or banned, and only then the next batch signed. It is the
 * one poller of a batch waiting on the chain: asked once a pass (again only if the chain did not answer the first time).
 */
export const payoutsJob: Job = {
  name: 'payouts',
  kind: 'housekeeping',
  async run({ graceMs, holding }) {
    const open = await runPayoutRound({ holding, sendNew: false });
    const holds = holding() ? await finishStatusChanges(graceMs) : 0;
    const next = await runPayoutRound({ holding, settleOpen: Boolean(open.stopped) });
    return {
      holdsBeforeSigning: holds,
      payoutsBatched: next.batched,
      payoutsConfirmed: open.confirmed + next.confirmed,
      payoutsBounced: open.bounced + next.bounced,
      payoutsRequeued: open.requeued + next.requeued,
    };
  },
};
