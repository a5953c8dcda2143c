import { stakeInput, stakeQuoteInput, stakeRef } from '@gift/shared';
import { createTRPCRouter, protectedProcedure, moneyProcedure } from '../../http/trpc';
import { claimStake, quoteStake, stake, stakePositions, stakingOffers } from './staking.service';

export const stakingRouter = createTRPCRouter({
  /** Enabled staking offers: coin, bounds, the durations offered with their profit percent, and the player's balance. */
  offers: protectedProcedure.query(({ ctx }) => stakingOffers(ctx.user._id, ctx.user.language)),
  /** The profit and unlock date of an amount and duration, before the player confirms. */
  quote: protectedProcedure.input(stakeQuoteInput).query(({ ctx, input }) => quoteStake(input, ctx.now())),
  /** Takes the amount and locks it; a double tap with the same key stakes once. */
  stake: moneyProcedure.input(stakeInput).mutation(({ ctx, input }) => stake(ctx.user._id, input, ctx.now())),
  /** The player's stakes with their countdown. */
  positions: protectedProcedure.query(({ ctx }) => stakePositions(ctx.user._id, ctx.now())),
  /** Principal plus profit, once, after the unlock date. */
  claim: moneyProcedure.input(stakeRef).mutation(({ ctx, input }) => claimStake(ctx.user._id, input.stakeId, ctx.now())),
});
