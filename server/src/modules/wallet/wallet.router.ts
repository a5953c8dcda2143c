import { tonProofInput, walletRef } from '@gift/shared';
import { createTRPCRouter, playerLimitedProcedure, protectedProcedure, moneyProcedure } from '../../http/trpc';
import { connectSettings, issueProofPayload, linkWallet, listWallets, unlinkWallet } from './wallet.service';

/** Each payload is a stored record: a player connecting wallets needs a few, not a flood. */
export const PROOF_PAYLOADS_PER_PLAYER = { name: 'wallet.proofPayload', limit: 20, windowSeconds: 15 * 60 };

/** The player's TON wallets: proven with TON Connect's ton_proof before they are linked. */
export const walletRouter = createTRPCRouter({
  connectSettings: protectedProcedure.query(() => connectSettings()),
  proofPayload: playerLimitedProcedure(PROOF_PAYLOADS_PER_PLAYER).mutation(({ ctx }) => issueProofPayload(ctx.user._id, ctx.now())),
  link: moneyProcedure
    .input(tonProofInput)
    .mutation(({ ctx, input }) => linkWallet({ userId: ctx.user._id, input, env: ctx.env, now: ctx.now(), logger: ctx.logger })),
  list: protectedProcedure.query(({ ctx }) => listWallets(ctx.user._id)),
  unlink: moneyProcedure.input(walletRef).mutation(({ ctx, input }) => unlinkWallet(ctx.user._id, input.address, ctx.now())),
});
