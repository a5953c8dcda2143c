import { appealInput } from '@gift/shared';
import { anyStandingProcedure, createTRPCRouter } from '../../http/trpc';
import { appealOf, helpFor, sendAppeal } from './help.service';

/** Help and appeals: open to every signed-in player, banned ones included (it is where they turn). */
export const helpRouter = createTRPCRouter({
  /** The operators' questions and answers in the player's language, and where to write to them. */
  get: anyStandingProcedure.query(({ ctx }) => helpFor(ctx.user.language)),
  /** The player's appeal against their current ban or freeze, with the operator's answer once given; null if none. */
  appeal: anyStandingProcedure.query(({ ctx }) => appealOf(ctx.user)),
  /** Sends the one appeal a ban or freeze allows (the same text again answers the same appeal). */
  sendAppeal: anyStandingProcedure.input(appealInput).mutation(({ ctx, input }) => sendAppeal(ctx.user, input.text)),
});

/** `support.appeal` with `{ text }`: the same one appeal as `help.sendAppeal`, under the name the support door is known by. */
export const supportRouter = createTRPCRouter({
  appeal: anyStandingProcedure.input(appealInput).mutation(({ ctx, input }) => sendAppeal(ctx.user, input.text)),
});
