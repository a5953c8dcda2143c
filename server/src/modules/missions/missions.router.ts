import { categoryRef, claimMissionInput, missionRef } from '@gift/shared';
import { createTRPCRouter, moneyProcedure, playerLimitedProcedure, protectedProcedure } from '../../http/trpc';
import { claimMission, missionsOfCategory, startMission } from './missions.service';
import { recordMissionOpen } from './missionFunnel.service';

/**
 * Claims are the costliest call (a verification and a ledger entry): two a second is more than any player taps. Counted in
 * each instance's memory: it guards the instance's work, not money (each reward is credited once under its key, and a cap
 * is held by a conditional write, however many claims arrive).
 */
export const CLAIMS_PER_PLAYER = { name: 'missions.claim', limit: 120, windowSeconds: 60, perInstance: true };

export const missionsRouter = createTRPCRouter({
  /** A category and its enabled missions, in order, with this player's status on each. */
  byCategory: protectedProcedure.input(categoryRef).query(({ ctx, input }) => missionsOfCategory(ctx.user, input.categoryId, ctx.now())),

  /** The mission's page opened (asked while it is not started): its first open is recorded once, for its funnel. */
  open: protectedProcedure.input(missionRef).mutation(async ({ ctx, input }) => {
    await recordMissionOpen(ctx.user._id, input.missionId, ctx.now());
    return { recorded: true as const };
  }),

  /** Go: records the start (the wait of Time and Instagram missions counts from here) and gives the link. */
  go: protectedProcedure.input(missionRef).mutation(({ ctx, input }) => startMission(ctx.user._id, input.missionId, ctx.now())),

  /** Claim: verified by the mission's type; credits the reward once, or waits for review (Manual). */
  claim: playerLimitedProcedure(CLAIMS_PER_PLAYER, moneyProcedure)
    .input(claimMissionInput)
    .mutation(({ ctx, input }) =>
      claimMission({
        user: { id: ctx.user._id, telegramId: ctx.user.telegramId, riskDueAt: ctx.user.riskDueAt },
        missionId: input.missionId,
        code: input.code,
        proof: input.proof,
        homeScreen: input.homeScreen,
        now: ctx.now(),
        env: ctx.env,
      }),
    ),
});
