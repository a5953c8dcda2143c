import { shopInvoiceInput } from '@gift/shared';
import { createTRPCRouter, moneyProcedure, protectedProcedure } from '../../http/trpc';
import { createInvoice, playerBoosts, playerPurchases, shopOffers } from './shop.service';

export const shopRouter = createTRPCRouter({
  /** The Stars shop's items on sale, in the player's language. */
  offers: protectedProcedure.query(({ ctx }) => shopOffers(ctx.user.language === 'fa' ? 'fa' : 'en')),
  /** The boosts the player holds: multipliers waiting for the next session, streak freezes. */
  boosts: protectedProcedure.query(({ ctx }) => playerBoosts(ctx.user)),
  /** The player's purchases, each with its telegram_payment_charge_id. */
  purchases: protectedProcedure.query(({ ctx }) => playerPurchases(ctx.user._id)),
  /** An invoice link (createInvoiceLink, XTR) for one item, for the app to open with openInvoice. */
  invoice: moneyProcedure.input(shopInvoiceInput).mutation(({ ctx, input }) => createInvoice(ctx.user, input.offerId, ctx.logger)),
});
