import { tonProofInput, walletRef } from '@gift/shared';
import { createTRPCRouter, protectedProcedure } from '../../trpc/trpc';
import { connectSettings, issueProofPayload, linkWallet, listWallets, unlinkWallet } from './wallet.service';

/** The player's TON wallets: proven with TON Connect's ton_proof before they are linked. */
export const walletRouter = createTRPCRouter({
  connectSettings: protectedProcedure.query(() => connectSettings()),
  proofPayload: protectedProcedure.mutation(({ ctx }) => issueProofPayload(ctx.user._id, ctx.now())),
  link: protectedProcedure
    .input(tonProofInput)
    .mutation(({ ctx, input }) => linkWallet({ userId: ctx.user._id, input, origin: ctx.origin, now: ctx.now(), logger: ctx.logger })),
  list: protectedProcedure.query(({ ctx }) => listWallets(ctx.user._id)),
  unlink: protectedProcedure.input(walletRef).mutation(({ ctx, input }) => unlinkWallet(ctx.user._id, input.address, ctx.now())),
});
