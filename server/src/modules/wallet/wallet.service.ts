import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { TON_PROOF_PAYLOAD_TTL_SECONDS, type TonProofInput } from '@gift/shared';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { verifyTonProof } from '../../lib/tonProof';
import { isDuplicateKey } from '../../db/mongoErrors';
import { type Id } from '../../db/ids';
import type { NewRecord } from '../../db/schemaKit';
import { getAppConfig, openInTelegramLink } from '../config/config.service';
import { recordPlayerWallet } from '../users/players.service';
import { TonProofPayloadModel, WalletLinkModel } from './wallet.models';

type WalletLinkDocument = NonNullable<Awaited<ReturnType<typeof WalletLinkModel.findOne>>>;

/** How a linked wallet is shown: the user-friendly form wallets display, and the raw form it is keyed by. */
function presentWallet(link: Pick<WalletLinkDocument, 'address' | 'network' | 'linkedAt'>) {
  return {
    address: friendlyAddress(link.address, link.network),
    rawAddress: link.address,
    network: link.network,
    linkedAt: link.linkedAt,
  };
}

/** Non-bounceable, as wallets show a wallet address (and as a payment to a fresh wallet must go). */
function friendlyAddress(rawAddress: string, network: string): string {
  return Address.parse(rawAddress).toString({ bounceable: false, testOnly: network === '-3' });
}

/**
 * Players' wallets as the console shows them (a player's Risk tab): each raw address in the user-friendly form wallets display,
 * for the network it was linked on, beside the raw form the records are keyed by.
 */
export async function friendlyWalletAddresses(rawAddresses: readonly string[]) {
  if (!rawAddresses.length) return [];
  const links = await WalletLinkModel.find({ address: { $in: rawAddresses } }, { address: 1, network: 1 }).lean();
  const networks = new Map(links.map((link) => [link.address, link.network]));
  return rawAddresses.map((raw) => {
    try {
      return { raw, address: friendlyAddress(raw, networks.get(raw) ?? '-239') };
    } catch {
      return { raw, address: raw };
    }
  });
}

/** What the TON Connect widget needs from the server: where a wallet inside Telegram returns the player to. */
export async function connectSettings() {
  return { twaReturnUrl: await openInTelegramLink() };
}

/** A fresh single-use payload for the wallet to sign in its ton_proof. */
export async function issueProofPayload(userId: Id, now: Date) {
  const payload = randomBytes(32).toString('hex');
  const expiresAt = new Date(now.getTime() + TON_PROOF_PAYLOAD_TTL_SECONDS * 1000);
  await TonProofPayloadModel.create({ payload, user: userId, expiresAt });
  return { payload, expiresAt };
}

/**
 * The domains a proof may name, from configuration only (never the request, whose Host an attacker writes):
 * the host of PUBLIC_URL and App Config's TON Connect domains. A development server without PUBLIC_URL
 * is the embedded demo at http://localhost:PORT.
 */
export async function allowedProofDomains(
  env: Pick<Env, 'PUBLIC_URL' | 'NODE_ENV' | 'PORT'>,
  config: { tonProofDomains: string[] } | null = null,
): Promise<string[]> {
  const { tonProofDomains } = config ?? (await getAppConfig());
  const site = env.PUBLIC_URL ?? (env.NODE_ENV === 'development' ? `http://localhost:${env.PORT}` : undefined);
  return [...(site ? [site] : []), ...tonProofDomains];
}

/** Consumes the payload in one conditional update, so a proof links at most once even when sent twice at once. */
async function consumePayload(payload: string, userId: Id, now: Date): Promise<string | null> {
  const used = await TonProofPayloadModel.findOneAndUpdate(
    { payload, user: userId, usedAt: null, expiresAt: { $gt: now } },
    { $set: { usedAt: now } },
  );
  if (used) return null;
  const issued = await TonProofPayloadModel.findOne({ payload }).lean();
  if (!issued) return 'unknown_payload';
  if (String(issued.user) !== String(userId)) return 'payload_of_another_player';
  return issued.usedAt ? 'payload_used' : 'payload_expired';
}

/** Claims the address for this player: it stays with whoever holds it until they unlink it. */
async function claimAddress(address: string, userId: Id, fields: { network: string; publicKey: string; now: Date }) {
  const set = { user: userId, network: fields.network, publicKey: fields.publicKey, linkedAt: fields.now, unlinkedAt: null };
  const retaken = await WalletLinkModel.findOneAndUpdate(
    { address, $or: [{ user: userId }, { unlinkedAt: { $ne: null } }] },
    { $set: set },
    { returnDocument: 'after' },
  );
  if (retaken) return retaken;
  try {
    return await WalletLinkModel.findOneAndUpdate(
      { address },
      { $setOnInsert: { address, ...set } },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true },
    );
  } catch (error) {
    // real MongoDB's unique index: another request inserted it first
    if (!isDuplicateKey(error)) throw error;
    return (await WalletLinkModel.findOne({ address }))!;
  }
}

export interface LinkWalletRequest {
  userId: Id;
  input: TonProofInput;
  env: Pick<Env, 'PUBLIC_URL' | 'NODE_ENV' | 'PORT'>;
  now: Date;
  logger?: Logger;
}

/** Links a wallet the player proved they own (TON Connect ton_proof) to them, and to no one else. */
export async function linkWallet({ userId, input, env, now, logger }: LinkWalletRequest) {
  const refuse = (reason: string, shown = reason) => {
    logger?.warn({ userId: String(userId), address: input.address, domain: input.proof.domain.value, reason }, 'ton_proof refused');
    return new AppError('TON_PROOF_INVALID', { reason: shown });
  };
  const config = await getAppConfig();
  const verdict = verifyTonProof(input, {
    allowedDomains: await allowedProofDomains(env, config),
    now,
    allowTestnet: config.allowTestnetWallets,
  });
  if (!verdict.ok) throw refuse(verdict.reason);
  const payloadProblem = await consumePayload(input.proof.payload, userId, now);
  // another player's payload is reported as unknown: whether it exists is none of this caller's business
  if (payloadProblem) throw refuse(payloadProblem, payloadProblem === 'payload_of_another_player' ? 'unknown_payload' : payloadProblem);

  const link = await claimAddress(verdict.address.toRawString(), userId, { network: input.network, publicKey: verdict.publicKey, now });
  if (String(link.user) !== String(userId)) throw new AppError('WALLET_TAKEN');
  await recordPlayerWallet(userId, link.address, now);
  return presentWallet(link);
}

export async function listWallets(userId: Id) {
  const links = await WalletLinkModel.find({ user: userId, unlinkedAt: null }).sort({ linkedAt: -1, _id: -1 });
  return links.map(presentWallet);
}

/** The wallet a withdrawal goes to: the one the player linked last. */
export async function currentWallet(userId: Id) {
  const link = await WalletLinkModel.findOne({ user: userId, unlinkedAt: null }).sort({ linkedAt: -1, _id: -1 });
  return link ? presentWallet(link) : null;
}

/** Releases one of the player's own wallets; someone else's is not found. */
export async function unlinkWallet(userId: Id, address: string, now: Date) {
  let raw: string;
  try {
    raw = Address.parse(address).toRawString();
  } catch {
    throw new AppError('NOT_FOUND');
  }
  const result = await WalletLinkModel.updateOne({ address: raw, user: userId, unlinkedAt: null }, { $set: { unlinkedAt: now } });
  if (result.matchedCount === 0) throw new AppError('NOT_FOUND');
  return listWallets(userId);
}

/** Removes ton_proof payloads a day past their expiry, as the TTL index does on MongoDB. */
export async function removeExpiredProofPayloads(now: Date): Promise<number> {
  return (await TonProofPayloadModel.deleteMany({ expiresAt: { $lte: new Date(now.getTime() - 86_400_000) } })).deletedCount;
}

/** Inserts wallet links as given (the demo seed; players link wallets with a signed ton_proof). */
export const insertWalletLinks = (records: NewRecord<typeof WalletLinkModel>[]) => WalletLinkModel.insertMany(records);

/** When the player linked each of their wallets (raw address to time), for the risk score's withdrawal to a fresh wallet. */
export async function linkTimesOf(playerId: Id): Promise<Map<string, Date>> {
  const links = await WalletLinkModel.find({ user: playerId }, { address: 1, linkedAt: 1 }).limit(100).lean();
  return new Map(links.map((link) => [link.address, link.linkedAt]));
}
