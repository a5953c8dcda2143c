import { createTRPCRouter, protectedProcedure } from '../../http/trpc';
import { currencyFor, homeFor } from './home.service';

export const homeRouter = createTRPCRouter({
  /** Covers, partners, categories with this player's progress, and the ⭐ missions still to do. */
  get: protectedProcedure.query(({ ctx }) => homeFor(ctx.user, ctx.now())),
  /** Every enabled coin with the player's balance and its USD value. */
  currency: protectedProcedure.query(({ ctx }) => currencyFor(ctx.user._id, ctx.user.language)),
});
