import { createTRPCRouter } from '../../trpc/trpc';

/** STUB: filled in by the wallet work. */
export const walletRouter = createTRPCRouter({});
