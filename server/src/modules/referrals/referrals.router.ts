import { friendsInput } from '@gift/shared';
import { createTRPCRouter, protectedProcedure } from '../../http/trpc';
import { friendsOf, prepareInviteMessage, referralSummary } from './referrals.service';

export const referralsRouter = createTRPCRouter({
  /** The player's invite link, share link, and how many friends counted toward the limit. */
  summary: protectedProcedure.query(({ ctx }) => referralSummary(ctx.user)),
  friends: protectedProcedure
    .input(friendsInput.optional())
    .query(({ ctx, input }) => friendsOf(ctx.user, input?.page ?? 1, input?.pageSize ?? 20)),
  /** The invite as a message Telegram keeps for the player to share to chats they pick (Telegram 8.0 and later). */
  prepareShare: protectedProcedure.mutation(({ ctx }) =>
    prepareInviteMessage(ctx.user, { env: ctx.env, now: ctx.now(), logger: ctx.logger }),
  ),
});
