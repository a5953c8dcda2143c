import { createTRPCRouter } from '../../trpc/trpc';

/** STUB: filled in by the economy work. */
export const homeRouter = createTRPCRouter({});
