import { createTRPCRouter, protectedProcedure, moneyProcedure } from '../../http/trpc';
import { miningStatus, moveMiningRewards, startMining } from './mining.service';

export const miningRouter = createTRPCRouter({
  /** Progress at server time, finished sessions ready to move, and the App Config terms. */
  status: protectedProcedure.query(({ ctx }) => miningStatus(ctx.user._id, ctx.now())),
  /** Starts a session; one running at a time. */
  start: moneyProcedure.mutation(({ ctx }) => startMining(ctx.user._id, ctx.now())),
  /** Credits every finished session to the wallet: 'Moved {count} mining rewards to wallet' or 'Nothing to move'. */
  move: moneyProcedure.mutation(({ ctx }) => moveMiningRewards(ctx.user._id, ctx.now())),
});
