import { createTRPCRouter } from '../../trpc/trpc';

/** STUB: filled in by the players' sign-in work. */
export const referralsRouter = createTRPCRouter({});
