import { requestLoginCodeInput, verifyLoginCodeInput } from '@gift/shared';
import { createTRPCRouter, publicProcedure } from '../../trpc/trpc';
import { requestLoginCode, verifyLoginCode } from './loginCode.service';

/** Signing in outside Telegram (the installed web app): a one-time code sent by the bot. */
export const authRouter = createTRPCRouter({
  requestLoginCode: publicProcedure
    .input(requestLoginCodeInput)
    .mutation(({ ctx, input }) => requestLoginCode(input.username, ctx.env, ctx.now(), ctx.logger)),
  verifyLoginCode: publicProcedure
    .input(verifyLoginCodeInput)
    .mutation(({ ctx, input }) => verifyLoginCode(input.username, input.code, ctx.env, ctx.now())),
});
