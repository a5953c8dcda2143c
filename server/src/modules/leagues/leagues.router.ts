import { createTRPCRouter, protectedProcedure } from '../../http/trpc';
import { friendsBoard, leagueBoard } from './leagues.service';

export const leaguesRouter = createTRPCRouter({
  /** The player's league this week: `{ league, week, entries: [{ rank, name, score }], me: { rank, score } }`, and who is around. */
  current: protectedProcedure.query(({ ctx }) => leagueBoard(ctx.user, ctx.now())),
  /** The player, their inviter and their invited friends, ranked by this week's earnings. */
  friends: protectedProcedure.query(({ ctx }) => friendsBoard(ctx.user, ctx.now())),
});
