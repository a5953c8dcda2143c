import { createHash, createPublicKey, verify } from 'node:crypto';
import { Address, Cell, CellType, contractAddress, loadStateInit, type Slice } from '@ton/core';
import { TON_PROOF_MAX_AGE_SECONDS, type TonProofInput } from '@gift/shared';

/** A wallet may sign a little ahead of the server's clock. */
const TON_PROOF_CLOCK_SKEW_SECONDS = 60;

const TON_PROOF_PREFIX = 'ton-proof-item-v2/';
const TON_CONNECT_PREFIX = 'ton-connect';

/** Why a proof was refused; short and safe to show, the details go to the server log. */
type TonProofRefusal =
  | 'malformed'
  | 'testnet_not_allowed'
  | 'unknown_wallet'
  | 'public_key_mismatch'
  | 'address_mismatch'
  | 'domain_not_allowed'
  | 'expired'
  | 'from_the_future'
  | 'bad_signature';

export type TonProofVerdict =
  { ok: true; address: Address; publicKey: string; wallet: WalletVersion } | { ok: false; reason: TonProofRefusal };

type WalletVersion = 'v3R1' | 'v3R2' | 'v4R1' | 'v4R2' | 'v5Beta' | 'v5R1';

/** Where each standard wallet keeps its public key in its data cell, by the hash of its code. */
const STANDARD_WALLETS: Record<string, { version: WalletVersion; publicKey: (data: Slice) => Buffer }> = {
  // v3: seqno:uint32 subwallet:uint32 public_key:bits256
  b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581: { version: 'v3R1', publicKey: afterBits(64) },
  '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599': { version: 'v3R2', publicKey: afterBits(64) },
  // v4: seqno:uint32 subwallet:uint32 public_key:bits256 plugins:(HashmapE 256)
  '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d': { version: 'v4R1', publicKey: afterBits(64) },
  feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0: { version: 'v4R2', publicKey: afterBits(64) },
  // W5 beta, which Tonkeeper deployed in 2024 as a library cell: seqno:int33 wallet_id:(int32 int8 uint8 uint32) public_key:bits256 plugins
  e4cf3b2f4c6d6a61ea0f2b5447d266785b26af3637db2deee6bcd1aa826f3412: { version: 'v5Beta', publicKey: afterBits(33 + 80) },
  // v5: is_signature_allowed:bit seqno:uint32 wallet_id:int32 public_key:bits256 extensions:(HashmapE 256)
  '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f': { version: 'v5R1', publicKey: afterBits(65) },
};

function afterBits(offset: number) {
  return (data: Slice) => {
    data.skip(offset);
    return data.loadBuffer(32);
  };
}

/** Lower-cased host[:port] of a domain or an origin URL, as a wallet puts it in the proof. */
function normaliseDomain(domainOrOrigin: string): string {
  const text = domainOrOrigin.trim().toLowerCase();
  if (!text.includes('://')) return text.replace(/\/.*$/, '');
  try {
    return new URL(text).host;
  } catch {
    return '';
  }
}

/** DER header of an Ed25519 public key (SubjectPublicKeyInfo), before its 32 raw bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Ed25519 with Node's native crypto: a login burst should not queue behind a pure-JS verifier. */
function ed25519Verify(message: Buffer, signature: Buffer, publicKey: Buffer): boolean {
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    return verify(null, message, key, signature);
  } catch {
    // bytes that are not a point on the curve sign nothing
    return false;
  }
}

function sha256(...parts: Buffer[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** The bytes a wallet signs for ton_proof (TON Connect spec, "ton-proof-item-v2"). */
function tonProofSigningHash(address: Address, domain: string, timestamp: number, payload: string): Buffer {
  const workchain = Buffer.alloc(4);
  workchain.writeInt32BE(address.workChain);
  const domainBytes = Buffer.from(domain, 'utf8');
  const domainLength = Buffer.alloc(4);
  domainLength.writeUInt32LE(domainBytes.length);
  const time = Buffer.alloc(8);
  time.writeBigUInt64LE(BigInt(timestamp));
  const message = Buffer.concat([
    Buffer.from(TON_PROOF_PREFIX, 'utf8'),
    workchain,
    address.hash,
    domainLength,
    domainBytes,
    time,
    Buffer.from(payload, 'utf8'),
  ]);
  return sha256(Buffer.from([0xff, 0xff]), Buffer.from(TON_CONNECT_PREFIX, 'utf8'), sha256(message));
}

function readStateInit(stateInitBase64: string) {
  try {
    return loadStateInit(Cell.fromBase64(stateInitBase64).beginParse());
  } catch {
    return null;
  }
}

/**
 * The hash of the code a state init runs. A library cell (exotic type 2: 8-bit tag, then 256-bit hash)
 * stands for the code published on chain under that hash; Tonkeeper deploys W5 that way.
 */
function codeHash(code: Cell): string {
  if (code.type === CellType.Library) return code.beginParse(true).skip(8).loadBuffer(32).toString('hex');
  return code.hash().toString('hex');
}

function readPublicKey(code: Cell, data: Cell): { version: WalletVersion; publicKey: Buffer } | null {
  const wallet = STANDARD_WALLETS[codeHash(code)];
  if (!wallet) return null;
  try {
    return { version: wallet.version, publicKey: wallet.publicKey(data.beginParse()) };
  } catch {
    return null;
  }
}

function parseAddress(text: string): Address | null {
  try {
    return Address.parse(text);
  } catch {
    return null;
  }
}

/**
 * Checks a TON Connect ton_proof without touching the database: the wallet's state init names its
 * public key and hashes to the claimed address, the domain is ours, the proof is recent, and the
 * signature is that key's. Whether the payload was issued to this player is the caller's business.
 */
export function verifyTonProof(
  input: TonProofInput,
  options: { allowedDomains: readonly string[]; now: Date; allowTestnet?: boolean },
): TonProofVerdict {
  const { proof } = input;
  const address = parseAddress(input.address);
  const stateInit = readStateInit(proof.stateInit);
  const signature = Buffer.from(proof.signature, 'base64');
  if (!address || !stateInit?.code || !stateInit.data || signature.length !== 64) return { ok: false, reason: 'malformed' };
  if (Buffer.byteLength(proof.domain.value, 'utf8') !== proof.domain.lengthBytes) return { ok: false, reason: 'malformed' };
  // mainnet payouts cannot reach a testnet account
  if (input.network === '-3' && !options.allowTestnet) return { ok: false, reason: 'testnet_not_allowed' };

  const wallet = readPublicKey(stateInit.code, stateInit.data);
  if (!wallet) return { ok: false, reason: 'unknown_wallet' };
  const publicKey = wallet.publicKey.toString('hex');
  if (input.publicKey && input.publicKey.toLowerCase() !== publicKey) return { ok: false, reason: 'public_key_mismatch' };
  if (!contractAddress(address.workChain, stateInit).equals(address)) return { ok: false, reason: 'address_mismatch' };

  const allowed = new Set(options.allowedDomains.map(normaliseDomain).filter(Boolean));
  if (!allowed.has(normaliseDomain(proof.domain.value))) return { ok: false, reason: 'domain_not_allowed' };

  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  if (nowSeconds - proof.timestamp > TON_PROOF_MAX_AGE_SECONDS) return { ok: false, reason: 'expired' };
  if (proof.timestamp - nowSeconds > TON_PROOF_CLOCK_SKEW_SECONDS) return { ok: false, reason: 'from_the_future' };

  const signed = tonProofSigningHash(address, proof.domain.value, proof.timestamp, proof.payload);
  if (!ed25519Verify(signed, signature, wallet.publicKey)) return { ok: false, reason: 'bad_signature' };
  return { ok: true, address, publicKey, wallet: wallet.version };
}
