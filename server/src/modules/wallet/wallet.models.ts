import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

/** A TON address proven (ton_proof) to belong to a player. One address, one player. */
const walletLinkSchema = applyConventions(
  new Schema(
    {
      /** Raw form "0:abcd…", so every textual form of an address maps to one record. */
      address: { type: String, required: true },
      user: ref('User', { required: true }),
      network: { type: String, enum: ['-239', '-3'], required: true },
      publicKey: { type: String, default: '' },
      linkedAt: { type: Date, default: () => new Date() },
      unlinkedAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
walletLinkSchema.index({ address: 1 }, { unique: true });
// a player's linked wallets, newest first
walletLinkSchema.index({ user: 1, unlinkedAt: 1, linkedAt: -1, _id: -1 });
export const WalletLinkModel = model('WalletLink', walletLinkSchema);

/** A single-use ton_proof payload issued to a player. */
const tonProofPayloadSchema = applyConventions(
  new Schema(
    {
      payload: { type: String, required: true },
      user: ref('User', { required: true }),
      expiresAt: { type: Date, required: true },
      usedAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
tonProofPayloadSchema.index({ payload: 1 }, { unique: true });
tonProofPayloadSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 86400 });
export const TonProofPayloadModel = model('TonProofPayload', tonProofPayloadSchema);
