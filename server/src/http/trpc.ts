import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { ERROR_MESSAGES } from '@gift/shared';
import { isDatabaseUnavailable } from '../db/mongoErrors';
import { addressKey } from '../lib/clientAddress';
import { AppError, databaseUnavailable } from '../lib/errors';
import type { Context } from './context';
import { playerApiPorts, type RateLimit } from './ports';
import { answerTransformer } from './answerTransformer';

type TrpcCode = TRPCError['code'];
function trpcCodeFor(status: number): TrpcCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return 'INTERNAL_SERVER_ERROR';
  }
}

const t = initTRPC.context<Context>().create({
  // superjson on the wire, written faster for plain answers (answerTransformer.ts)
  transformer: answerTransformer,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const appError = cause instanceof AppError ? cause : undefined;
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    const zodError = cause instanceof ZodError ? z.flattenError(cause) : null;
    return {
      ...shape,
      // internals never reach the player: the real error is logged by the adapter's onError
      message: internal ? ERROR_MESSAGES.INTERNAL : zodError ? ERROR_MESSAGES.BAD_INPUT : shape.message,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        /** The product's error code, which the client translates. */
        appCode: appError?.code ?? (zodError ? 'BAD_INPUT' : internal ? 'INTERNAL' : null),
        params: appError?.params ?? null,
        zodError,
      },
    };
  },
});

/**
 * Turns the domain's AppError (and a database that could not answer: 503) into a TRPCError with the matching status, keeping it as the
 * cause.
 */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const failure = result.error.cause;
    const cause = failure instanceof AppError ? failure : isDatabaseUnavailable(failure) ? databaseUnavailable(failure) : undefined;
    if (cause) throw new TRPCError({ code: trpcCodeFor(cause.status), message: cause.message, cause });
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(domainErrors);

/**
 * Every call of one player, reads included, in a minute: far above what the app makes (a page is a handful
 * of calls), far below what would let one player take a large share of an instance. Counted in each instance's
 * memory: it guards an instance's share, not money or sign-in, and a database write on every read would cost
 * more than most reads.
 */
export const CALLS_PER_PLAYER = { name: 'player.calls', limit: 300, windowSeconds: 60, perInstance: true };

/**
 * A signed-in player (Telegram launch, web sign-in, or the development demo player), within their budget
 * of calls when the call came over HTTP (the server's own in-process callers are not counted).
 */
export const protectedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw new AppError(ctx.authError ?? 'UNAUTHORIZED');
  // a banned player is told why, on every call
  const refusal = playerApiPorts().standingRefusal(ctx.user, { money: false });
  if (refusal) throw refusal;
  if (ctx.ip) await playerApiPorts().enforceRateLimit(CALLS_PER_PLAYER, String(ctx.user._id), ctx.now());
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * A signed-in player whatever their standing, banned included: only what a banned player may still do (read the Help page,
 * appeal against the decision). Within the same budget of calls.
 */
export const anyStandingProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw new AppError(ctx.authError ?? 'UNAUTHORIZED');
  if (ctx.ip) await playerApiPorts().enforceRateLimit(CALLS_PER_PLAYER, String(ctx.user._id), ctx.now());
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * A player's own money move (a claim, mining, a stake, a wallet, a withdrawal): refused while they are frozen, with the reason
 * in their language. The ledger holds the same moves too (`guarded` entries), for the ones already past this door.
 */
export const moneyProcedure = protectedProcedure.use(({ ctx, next }) => {
  const refusal = playerApiPorts().standingRefusal(ctx.user, { money: true });
  if (refusal) throw refusal;
  return next();
});

/** A signed-in player's procedure (a money move with `moneyProcedure`) that costs enough to be counted per player. */
export function playerLimitedProcedure(rule: RateLimit, base: typeof protectedProcedure = protectedProcedure) {
  return base.use(async ({ ctx, next }) => {
    await playerApiPorts().enforceRateLimit(rule, String(ctx.user._id), ctx.now());
    return next();
  });
}

/**
 * A procedure open to anyone, counted per client address (as TRUST_PROXY resolves it; IPv6 by its /64);
 * a call without a transport has none.
 */
export function addressLimitedProcedure(rule: RateLimit) {
  return publicProcedure.use(async ({ ctx, next }) => {
    if (ctx.ip) await playerApiPorts().enforceRateLimit(rule, addressKey(ctx.ip), ctx.now());
    return next();
  });
}
