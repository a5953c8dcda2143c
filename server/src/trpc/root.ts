import { authRouter } from '../modules/users/auth.router';
import { usersRouter } from '../modules/users/users.router';
import { referralsRouter } from '../modules/referrals/referrals.router';
import { homeRouter } from '../modules/home/home.router';
import { missionsRouter } from '../modules/missions/missions.router';
import { miningRouter } from '../modules/mining/mining.router';
import { stakingRouter } from '../modules/staking/staking.router';
import { walletRouter } from '../modules/wallet/wallet.router';
import { withdrawalsRouter } from '../modules/withdrawals/withdrawals.router';
import { createCallerFactory, createTRPCRouter, publicProcedure } from '../http/trpc';

export const appRouter = createTRPCRouter({
  health: publicProcedure.query(() => ({ ok: true as const })),
  auth: authRouter,
  user: usersRouter,
  referrals: referralsRouter,
  home: homeRouter,
  missions: missionsRouter,
  mining: miningRouter,
  staking: stakingRouter,
  wallet: walletRouter,
  withdrawals: withdrawalsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
