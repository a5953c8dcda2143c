import { settingsInput } from '@gift/shared';
import { createTRPCRouter, protectedProcedure } from '../../http/trpc';
import { allowMessages, profileOf, updateSettings } from './users.service';

export const usersRouter = createTRPCRouter({
  /** The signed-in player's profile and per-coin figures. */
  me: protectedProcedure.query(({ ctx }) => profileOf(ctx.user)),
  updateSettings: protectedProcedure.input(settingsInput).mutation(({ ctx, input }) => updateSettings(ctx.user, input, ctx.now())),
  /** Telegram answered the app's write-access request with "allowed". */
  allowMessages: protectedProcedure.mutation(({ ctx }) => allowMessages(ctx.user, ctx.now())),
});
