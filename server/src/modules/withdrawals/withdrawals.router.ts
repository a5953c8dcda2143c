import { withdrawalHistoryInput, withdrawInput } from '@gift/shared';
import { createTRPCRouter, protectedProcedure, moneyProcedure } from '../../http/trpc';
import { requestWithdrawal, withdrawableCoins, withdrawalHistory } from './withdrawals.service';

/** A player's withdrawals to their linked TON wallet. */
export const withdrawalsRouter = createTRPCRouter({
  request: moneyProcedure.input(withdrawInput).mutation(({ ctx, input }) => requestWithdrawal({ userId: ctx.user._id, ...input })),
  coins: protectedProcedure.query(({ ctx }) => withdrawableCoins(ctx.user._id, ctx.user.language)),
  history: protectedProcedure.input(withdrawalHistoryInput).query(({ ctx, input }) => withdrawalHistory(ctx.user._id, input)),
});
