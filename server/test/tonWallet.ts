import { createHash, randomBytes } from 'node:crypto';
import { beginCell, Cell, contractAddress, storeStateInit, type Address, type StateInit } from '@ton/core';
import { keyPairFromSeed, sign, type KeyPair } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5Beta, WalletContractV5R1 } from '@ton/ton';
import type { TonProofInput } from '@gift/shared';

/** A wallet as a TON Connect wallet app holds it: a real Ed25519 key pair and its contract's state init. */
export interface TestWallet {
  keyPair: KeyPair;
  address: Address;
  init: StateInit;
}

export type TestWalletVersion = 'v3R2' | 'v4R2' | 'v5Beta' | 'v5R1' | 'v5R1-library';

/**
 * The code as Tonkeeper deploys W5: a library cell (exotic, type 2) naming the hash of the code,
 * which the chain publishes once for every wallet.
 */
export function libraryCell(code: Cell): Cell {
  return new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(code.hash()).endCell().bits });
}

export function testWallet(version: TestWalletVersion = 'v4R2', workchain = 0): TestWallet {
  const keyPair = keyPairFromSeed(randomBytes(32));
  const { publicKey } = keyPair;
  const contract =
    version === 'v3R2'
      ? WalletContractV3R2.create({ workchain, publicKey })
      : version === 'v4R2'
        ? WalletContractV4.create({ workchain, publicKey })
        : version === 'v5Beta'
          ? // its code, as @ton/ton ships it, is the library cell Tonkeeper deployed
            WalletContractV5Beta.create({ publicKey, walletId: { networkGlobalId: -239, workchain } })
          : WalletContractV5R1.create({ workchain, publicKey });
  if (version !== 'v5R1-library') return { keyPair, address: contract.address, init: contract.init };
  const init = { code: libraryCell(contract.init.code), data: contract.init.data };
  return { keyPair, address: contractAddress(workchain, init), init };
}

export function stateInitBase64(init: StateInit): string {
  return beginCell().store(storeStateInit(init)).endCell().toBoc().toString('base64');
}

/**
 * The bytes a wallet signs, written out here from the TON Connect spec on its own (not the server's code),
 * so a slip in the server's message layout fails the tests.
 */
function walletSigningHash(address: Address, domain: string, timestamp: number, payload: string): Buffer {
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();
  const wc = Buffer.alloc(4);
  wc.writeInt32BE(address.workChain);
  const domainLength = Buffer.alloc(4);
  domainLength.writeUInt32LE(Buffer.byteLength(domain));
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64LE(BigInt(timestamp));
  const message = Buffer.concat([
    Buffer.from('ton-proof-item-v2/'),
    wc,
    address.hash,
    domainLength,
    Buffer.from(domain),
    ts,
    Buffer.from(payload),
  ]);
  return sha256(Buffer.concat([Buffer.from('ffff', 'hex'), Buffer.from('ton-connect'), sha256(message)]));
}

/** What the wallet sends back for a ton_proof request; each field can be overridden to forge a bad one. */
export function signTonProof(
  wallet: TestWallet,
  options: {
    payload: string;
    domain: string;
    timestamp: number;
    /** Sign with this key instead of the wallet's. */
    signingKey?: Buffer;
    address?: string;
    stateInit?: string;
    publicKey?: string;
    network?: TonProofInput['network'];
  },
): TonProofInput {
  const signature = sign(
    walletSigningHash(wallet.address, options.domain, options.timestamp, options.payload),
    options.signingKey ?? wallet.keyPair.secretKey,
  );
  return {
    address: options.address ?? wallet.address.toRawString(),
    network: options.network ?? '-239',
    publicKey: options.publicKey ?? wallet.keyPair.publicKey.toString('hex'),
    proof: {
      timestamp: options.timestamp,
      domain: { lengthBytes: Buffer.byteLength(options.domain), value: options.domain },
      signature: signature.toString('base64'),
      payload: options.payload,
      stateInit: options.stateInit ?? stateInitBase64(wallet.init),
    },
  };
}
