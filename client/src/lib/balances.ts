import { trpc } from './trpc';

/** After a credit or a debit: every cached screen that shows a balance or progress reloads at once. */
export function useBalancesChanged(): () => Promise<void> {
  const utils = trpc.useUtils();
  return async () => {
    await Promise.all([
      utils.home.get.invalidate(),
      utils.home.currency.invalidate(),
      utils.user.me.invalidate(),
      utils.missions.byCategory.invalidate(),
      utils.staking.offers.invalidate(),
    ]);
  };
}
