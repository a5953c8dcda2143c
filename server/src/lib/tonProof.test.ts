import { randomBytes } from 'node:crypto';
import { beginCell } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TON_PROOF_MAX_AGE_SECONDS } from '@gift/shared';
import { libraryCell, signTonProof, stateInitBase64, testWallet } from '../../test/tonWallet';
import { verifyTonProof } from './tonProof';

const DOMAIN = 'gift.example';
const now = new Date('2025-03-01T12:00:00Z');
const nowSeconds = Math.floor(now.getTime() / 1000);
const check = { allowedDomains: ['https://gift.example'], now };
const payload = randomBytes(32).toString('hex');
/** The wallet's proof of our payload for our domain, signed now, with `changes` (another domain, time, key, …). */
const proofBy = (wallet: ReturnType<typeof testWallet>, changes: Partial<Parameters<typeof signTonProof>[1]> = {}) =>
  signTonProof(wallet, { payload, domain: DOMAIN, timestamp: nowSeconds, ...changes });

describe('ton_proof verification', () => {
  it.each(['v3R2', 'v4R2', 'v5Beta', 'v5R1'] as const)('accepts a %s wallet proving its address for our domain', (version) => {
    const wallet = testWallet(version);
    const verdict = verifyTonProof(proofBy(wallet), check);
    expect(verdict).toMatchObject({ ok: true, wallet: version, publicKey: wallet.keyPair.publicKey.toString('hex') });
    expect(verdict.ok && verdict.address.equals(wallet.address)).toBe(true);
  });

  it('accepts a W5 deployed as Tonkeeper does, its code a library cell naming the v5R1 code hash', () => {
    const wallet = testWallet('v5R1-library');
    const stateInit = stateInitBase64(wallet.init);
    expect(stateInit).not.toBe(stateInitBase64(testWallet('v5R1').init));
    const verdict = verifyTonProof(proofBy(wallet), check);
    expect(verdict).toMatchObject({ ok: true, wallet: 'v5R1', publicKey: wallet.keyPair.publicKey.toString('hex') });
    expect(verdict.ok && verdict.address.equals(wallet.address)).toBe(true);
  });

  it('refuses a library cell naming code that is not a standard wallet', () => {
    const wallet = testWallet('v5R1');
    const init = { code: libraryCell(beginCell().storeUint(0xdead, 16).endCell()), data: wallet.init.data };
    const proof = proofBy(wallet, { stateInit: stateInitBase64(init) });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'unknown_wallet' });
  });

  it('refuses a testnet account unless testnet is allowed', () => {
    const proof = proofBy(testWallet(), { network: '-3' });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'testnet_not_allowed' });
    expect(verifyTonProof(proof, { ...check, allowTestnet: true })).toMatchObject({ ok: true });
  });

  it('accepts a masterchain wallet and the address in its user-friendly form', () => {
    const wallet = testWallet('v4R2', -1);
    const proof = proofBy(wallet, { address: wallet.address.toString({ bounceable: false }) });
    expect(verifyTonProof(proof, check)).toMatchObject({ ok: true });
  });

  it('accepts a domain listed in App Config, with its port', () => {
    const wallet = testWallet();
    const proof = proofBy(wallet, { domain: 'app.gift.example:8443' });
    expect(verifyTonProof(proof, { allowedDomains: ['gift.example', 'APP.gift.example:8443'], now })).toMatchObject({ ok: true });
  });

  it('refuses a proof made for another site', () => {
    const proof = proofBy(testWallet(), { domain: 'evil.example' });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'domain_not_allowed' });
  });

  it('refuses a proof older than 15 minutes, and one dated in the future', () => {
    const wallet = testWallet();
    const stale = proofBy(wallet, { timestamp: nowSeconds - TON_PROOF_MAX_AGE_SECONDS - 1 });
    expect(verifyTonProof(stale, check)).toEqual({ ok: false, reason: 'expired' });
    const justInTime = proofBy(wallet, { timestamp: nowSeconds - TON_PROOF_MAX_AGE_SECONDS });
    expect(verifyTonProof(justInTime, check)).toMatchObject({ ok: true });
    const future = proofBy(wallet, { timestamp: nowSeconds + 3600 });
    expect(verifyTonProof(future, check)).toEqual({ ok: false, reason: 'from_the_future' });
  });

  it('refuses a signature made with another key', () => {
    const wallet = testWallet();
    const proof = proofBy(wallet, { signingKey: keyPairFromSeed(randomBytes(32)).secretKey });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a signature over a different payload', () => {
    const proof = proofBy(testWallet());
    proof.proof.payload = randomBytes(32).toString('hex');
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses an address the state init does not belong to', () => {
    const wallet = testWallet();
    const someoneElse = testWallet();
    // the attacker's own wallet signs, claiming the victim's address
    const proof = proofBy(wallet, { address: someoneElse.address.toRawString() });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'address_mismatch' });
  });

  it('refuses a public key that is not the one in the state init', () => {
    const wallet = testWallet();
    const proof = proofBy(wallet, { publicKey: keyPairFromSeed(randomBytes(32)).publicKey.toString('hex') });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'public_key_mismatch' });
  });

  it('refuses a contract that is not a standard wallet, even if its data holds the key', () => {
    const wallet = testWallet();
    const init = { code: beginCell().storeUint(0xdead, 16).endCell(), data: wallet.init.data };
    const proof = proofBy(wallet, { stateInit: stateInitBase64(init) });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'unknown_wallet' });
  });

  it('refuses garbage instead of a state init or a signature', () => {
    const wallet = testWallet();
    const proof = proofBy(wallet, { stateInit: 'bm90IGEgY2VsbA==' });
    expect(verifyTonProof(proof, check)).toEqual({ ok: false, reason: 'malformed' });
    const short = proofBy(wallet);
    short.proof.signature = Buffer.alloc(10).toString('base64');
    expect(verifyTonProof(short, check)).toEqual({ ok: false, reason: 'malformed' });
  });
});
