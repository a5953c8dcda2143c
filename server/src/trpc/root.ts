import { authRouter } from '../modules/users/auth.router';
import { usersRouter } from '../modules/users/users.router';
import { referralsRouter } from '../modules/referrals/referrals.router';
import { homeRouter } from '../modules/home/home.router';
import { missionsRouter } from '../modules/missions/missions.router';
import { miningRouter } from '../modules/mining/mining.router';
import { stakingRouter } from '../modules/staking/staking.router';
import { walletRouter } from '../modules/wallet/wallet.router';
import { withdrawalsRouter } from '../modules/withdrawals/withdrawals.router';
import { helpRouter, supportRouter } from '../modules/help/help.router';
import { shopRouter } from '../modules/shop/shop.router';
import { leaguesRouter } from '../modules/leagues/leagues.router';
import { authenticatePlayer } from '../modules/users/playerAuth.service';
import type { UserDocument } from '../modules/users/players.service';
import { standingRefusal } from '../modules/users/playerStatus.service';
import { configureWithdrawalFigures } from '../modules/users/users.service';
import { withdrawalsInFlight } from '../modules/withdrawals/withdrawalFigures.service';
import { enforceRateLimit } from '../modules/rateLimits/rateLimit.service';
import { createCallerFactory, createTRPCRouter, publicProcedure } from '../http/trpc';
import { configurePlayerApi } from '../http/ports';

// the player API's kits (http/context.ts, http/trpc.ts) sign players in and check their standing and budgets with these
configurePlayerApi({ authenticatePlayer, standingRefusal, enforceRateLimit });
// a player's figures count their withdrawals in flight, read by the module that owns them
configureWithdrawalFigures(withdrawalsInFlight);

declare module '../http/ports' {
  /** A procedure's player (`ctx.user`) is the users module's document. */
  interface PlayerType {
    player: UserDocument;
  }
}

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
  help: helpRouter,
  support: supportRouter,
  shop: shopRouter,
  leagues: leaguesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
