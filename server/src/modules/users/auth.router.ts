import { requestLoginCodeInput, verifyLoginCodeInput } from '@gift/shared';
import { addressKey } from '../../lib/clientAddress';
import { addressLimitedProcedure, createTRPCRouter, protectedProcedure, publicProcedure } from '../../http/trpc';
import { openInTelegramLink } from '../config/config.service';
import { endWebSessions } from './playerAuth.service';
import { requestLoginCode, verifyLoginCode } from './loginCode.service';

/** Per client address, on top of the per-player limits of the codes themselves: a flood of guesses or requests stops early. */
export const LOGIN_CODE_REQUESTS_PER_ADDRESS = { name: 'auth.requestLoginCode', limit: 20, windowSeconds: 15 * 60 };
export const LOGIN_CODE_CHECKS_PER_ADDRESS = { name: 'auth.verifyLoginCode', limit: 30, windowSeconds: 15 * 60 };

/** Signing in outside Telegram (the installed web app): a one-time code sent by the bot. */
export const authRouter = createTRPCRouter({
  /** What the sign-in page outside Telegram offers besides the code: the link that opens the app in Telegram. */
  signInSettings: publicProcedure.query(async () => ({ openInTelegram: await openInTelegramLink() })),
  requestLoginCode: addressLimitedProcedure(LOGIN_CODE_REQUESTS_PER_ADDRESS)
    .input(requestLoginCodeInput)
    .mutation(({ ctx, input }) =>
      requestLoginCode(input.username, {
        env: ctx.env,
        now: ctx.now(),
        address: ctx.ip ? addressKey(ctx.ip) : '',
        afterResponse: ctx.afterResponse,
        logger: ctx.logger,
      }),
    ),
  verifyLoginCode: addressLimitedProcedure(LOGIN_CODE_CHECKS_PER_ADDRESS)
    .input(verifyLoginCodeInput)
    .mutation(({ ctx, input }) => verifyLoginCode(input, ctx.env, ctx.now())),
  /** "Sign out everywhere": every web sign-in token of the player stops working at once. */
  signOutEverywhere: protectedProcedure.mutation(({ ctx }) => endWebSessions(ctx.user._id)),
});
