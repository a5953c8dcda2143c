import { createCallerFactory, createTRPCRouter, publicProcedure } from './trpc';

export const appRouter = createTRPCRouter({
  health: publicProcedure.query(() => ({ ok: true as const })),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
