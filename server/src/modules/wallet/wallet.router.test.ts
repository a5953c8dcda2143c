import { randomBytes } from 'node:crypto';
import { TON_PROOF_MAX_AGE_SECONDS, TON_PROOF_PAYLOAD_TTL_SECONDS } from '@gift/shared';
import { keyPairFromSeed } from '@ton/crypto';
import request from 'supertest';
import { createApp } from '../../app';
import { createPlayer } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { signTonProof, testWallet, type TestWallet } from '../../../test/tonWallet';
import { signPlayerToken } from '../users/playerAuth.service';
import type { UserDocument } from '../users/user.model';
import { AppConfigModel } from '../config/appConfig.model';
import { createContextInner } from '../../http/context';
import { createCaller } from '../../trpc/root';
import { WalletLinkModel } from './wallet.models';
import { allowedProofDomains } from './wallet.service';

const ORIGIN = 'https://gift.example';
const DOMAIN = 'gift.example';
const start = new Date('2025-05-01T10:00:00Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const env = testEnv({ PUBLIC_URL: ORIGIN });

function caller(user: UserDocument, now: Date = start) {
  return createCaller(createContextInner({ env, user, now: () => now }));
}

/** The whole TON Connect round: ask for a payload, have the wallet sign it, send the proof. */
async function proveAndLink(user: UserDocument, wallet: TestWallet, overrides: Partial<Parameters<typeof signTonProof>[1]> = {}) {
  const { payload } = await caller(user).wallet.proofPayload();
  return caller(user).wallet.link(signTonProof(wallet, { payload, domain: DOMAIN, timestamp: seconds(start), ...overrides }));
}

const refusedBecause = (reason: string) => ({
  code: 'BAD_REQUEST',
  cause: expect.objectContaining({ code: 'TON_PROOF_INVALID', params: { reason } }),
});

describe('wallet linking with ton_proof', () => {
  it('links a wallet the player proved they own, shown in both address forms', async () => {
    const player = await createPlayer();
    const wallet = testWallet();
    const linked = await proveAndLink(player, wallet);
    expect(linked).toEqual({
      address: wallet.address.toString({ bounceable: false }),
      rawAddress: wallet.address.toRawString(),
      network: '-239',
      linkedAt: start,
    });
    expect(linked.address).toMatch(/^UQ/);
    expect(await caller(player).wallet.list()).toEqual([linked]);
  });

  it.each(['v3R2', 'v4R2', 'v5R1', 'v5R1-library'] as const)('links a %s wallet signing with its own Ed25519 key', async (version) => {
    const player = await createPlayer();
    const wallet = testWallet(version);
    await expect(proveAndLink(player, wallet)).resolves.toMatchObject({ rawAddress: wallet.address.toRawString(), network: '-239' });
    expect(await WalletLinkModel.countDocuments({ user: player._id })).toBe(1);
  });

  it('refuses a testnet account until an operator allows testnet in App Config', async () => {
    const player = await createPlayer();
    const wallet = testWallet();
    await expect(proveAndLink(player, wallet, { network: '-3' })).rejects.toMatchObject(refusedBecause('testnet_not_allowed'));
    expect(await caller(player).wallet.list()).toEqual([]);

    await AppConfigModel.findOneAndUpdate({ key: 'app' }, { $set: { allowTestnetWallets: true } }, { upsert: true });
    try {
      const linked = await proveAndLink(player, wallet, { network: '-3' });
      expect(linked).toMatchObject({ network: '-3', rawAddress: wallet.address.toRawString() });
      expect(linked.address).toMatch(/^0Q/);
    } finally {
      await AppConfigModel.updateOne({ key: 'app' }, { $set: { allowTestnetWallets: false } });
    }
  });

  it('tells the widget to return the player to the mini app on t.me', async () => {
    const player = await createPlayer();
    await AppConfigModel.findOneAndUpdate({ key: 'app' }, { $set: { botUsername: 'gift_bot', miniAppName: 'app' } }, { upsert: true });
    try {
      expect(await caller(player).wallet.connectSettings()).toEqual({ twaReturnUrl: 'https://t.me/gift_bot/app' });
    } finally {
      await AppConfigModel.updateOne({ key: 'app' }, { $set: { botUsername: '', miniAppName: '' } });
    }
    expect(await caller(player).wallet.connectSettings()).toEqual({ twaReturnUrl: null });
  });

  it('issues a different payload each time, for a short while', async () => {
    const player = await createPlayer();
    const first = await caller(player).wallet.proofPayload();
    const second = await caller(player).wallet.proofPayload();
    expect(first.payload).toMatch(/^[a-f0-9]{64}$/);
    expect(second.payload).not.toBe(first.payload);
    expect(first.expiresAt).toEqual(new Date(start.getTime() + TON_PROOF_PAYLOAD_TTL_SECONDS * 1000));
  });

  it('accepts a domain an operator listed in App Config', async () => {
    await AppConfigModel.findOneAndUpdate({ key: 'app' }, { $set: { tonProofDomains: ['t.me', 'mini.gift.example'] } }, { upsert: true });
    const player = await createPlayer();
    await expect(proveAndLink(player, testWallet(), { domain: 'mini.gift.example' })).resolves.toMatchObject({ network: '-239' });
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { tonProofDomains: [] } });
  });

  it('refuses a proof made for another site, and links nothing', async () => {
    const player = await createPlayer();
    await expect(proveAndLink(player, testWallet(), { domain: 'evil.example' })).rejects.toMatchObject(
      refusedBecause('domain_not_allowed'),
    );
    expect(await caller(player).wallet.list()).toEqual([]);
  });

  it('refuses a proof signed more than 15 minutes ago', async () => {
    const player = await createPlayer();
    const stale = seconds(start) - TON_PROOF_MAX_AGE_SECONDS - 60;
    await expect(proveAndLink(player, testWallet(), { timestamp: stale })).rejects.toMatchObject(refusedBecause('expired'));
  });

  it('refuses a payload used once already', async () => {
    const player = await createPlayer();
    const wallet = testWallet();
    const { payload } = await caller(player).wallet.proofPayload();
    const proof = signTonProof(wallet, { payload, domain: DOMAIN, timestamp: seconds(start) });
    await caller(player).wallet.link(proof);
    await expect(caller(player).wallet.link(proof)).rejects.toMatchObject(refusedBecause('payload_used'));
  });

  it('links once when the same proof arrives many times at once', async () => {
    const player = await createPlayer();
    const { payload } = await caller(player).wallet.proofPayload();
    const proof = signTonProof(testWallet(), { payload, domain: DOMAIN, timestamp: seconds(start) });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => caller(player).wallet.link(proof)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await WalletLinkModel.countDocuments({ user: player._id })).toBe(1);
  }, 30_000);

  it('refuses a payload the server never issued', async () => {
    const player = await createPlayer();
    const proof = signTonProof(testWallet(), { payload: randomBytes(32).toString('hex'), domain: DOMAIN, timestamp: seconds(start) });
    await expect(caller(player).wallet.link(proof)).rejects.toMatchObject(refusedBecause('unknown_payload'));
  });

  it('refuses a payload issued to another player', async () => {
    const [alice, mallory] = await Promise.all([createPlayer(), createPlayer()]);
    const { payload } = await caller(alice).wallet.proofPayload();
    const proof = signTonProof(testWallet(), { payload, domain: DOMAIN, timestamp: seconds(start) });
    await expect(caller(mallory).wallet.link(proof)).rejects.toMatchObject(refusedBecause('unknown_payload'));
    // the payload is still Alice's to use
    await expect(caller(alice).wallet.link(proof)).resolves.toMatchObject({ network: '-239' });
  });

  it('refuses a payload past its life', async () => {
    const player = await createPlayer();
    const { payload } = await caller(player).wallet.proofPayload();
    const later = new Date(start.getTime() + (TON_PROOF_PAYLOAD_TTL_SECONDS + 1) * 1000);
    const proof = signTonProof(testWallet(), { payload, domain: DOMAIN, timestamp: seconds(later) });
    await expect(caller(player, later).wallet.link(proof)).rejects.toMatchObject(refusedBecause('payload_expired'));
  });

  it('refuses an address the wallet state init does not hash to', async () => {
    const player = await createPlayer();
    const victim = testWallet();
    await expect(proveAndLink(player, testWallet(), { address: victim.address.toRawString() })).rejects.toMatchObject(
      refusedBecause('address_mismatch'),
    );
  });

  it('refuses a signature not made by the wallet key', async () => {
    const player = await createPlayer();
    const forger = keyPairFromSeed(randomBytes(32));
    await expect(proveAndLink(player, testWallet(), { signingKey: forger.secretKey })).rejects.toMatchObject(
      refusedBecause('bad_signature'),
    );
  });

  it('links an address to one player only, until they unlink it', async () => {
    const [alice, bob] = await Promise.all([createPlayer(), createPlayer()]);
    const wallet = testWallet();
    await proveAndLink(alice, wallet);
    await expect(proveAndLink(bob, wallet)).rejects.toMatchObject({ cause: expect.objectContaining({ code: 'WALLET_TAKEN' }) });
    // Alice proving it again is fine, and still one record
    await expect(proveAndLink(alice, wallet)).resolves.toMatchObject({ rawAddress: wallet.address.toRawString() });
    expect(await WalletLinkModel.countDocuments({ address: wallet.address.toRawString() })).toBe(1);

    await expect(caller(bob).wallet.unlink({ address: wallet.address.toRawString() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await caller(alice).wallet.unlink({ address: wallet.address.toString({ bounceable: false }) })).toEqual([]);
    await expect(proveAndLink(bob, wallet)).resolves.toMatchObject({ rawAddress: wallet.address.toRawString() });
    expect(await caller(alice).wallet.list()).toEqual([]);
  });

  it('gives a wallet to exactly one of many players proving it at once', async () => {
    const players = await Promise.all(Array.from({ length: 10 }, () => createPlayer()));
    const wallet = testWallet();
    const proofs = await Promise.all(
      players.map(async (p) => {
        const { payload } = await caller(p).wallet.proofPayload();
        return signTonProof(wallet, { payload, domain: DOMAIN, timestamp: seconds(start) });
      }),
    );
    const outcomes = await Promise.allSettled(players.map((p, i) => caller(p).wallet.link(proofs[i]!)));
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(refused.every((o) => o.reason.cause?.code === 'WALLET_TAKEN')).toBe(true);
    expect(await WalletLinkModel.countDocuments({ address: wallet.address.toRawString() })).toBe(1);
  }, 30_000);

  it('asks a signed-out caller to sign in', async () => {
    const anonymous = createCaller(createContextInner({ env }));
    await expect(anonymous.wallet.proofPayload()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('over HTTP, refuses a proof signed for the site the request names in Host, and accepts one for PUBLIC_URL', async () => {
    const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const player = await createPlayer();
    const auth = `Bearer ${signPlayerToken(player.id, env.JWT_SECRET, new Date())}`;
    // a phishing site relays its visitor's proof with its own name in Host
    const call = (procedure: string, input?: unknown) =>
      request(app).post(`/trpc/wallet.${procedure}`).set('Host', 'evil.example').set('Authorization', auth).send({ json: input });
    const wallet = testWallet();
    const sign = async (domain: string) => {
      const { body } = await call('proofPayload').expect(200);
      return signTonProof(wallet, { payload: body.result.data.json.payload, domain, timestamp: seconds(new Date()) });
    };

    const squatted = await call('link', await sign('evil.example')).expect(400);
    expect(squatted.body.error.json).toMatchObject({
      message: 'Wallet proof is invalid',
      data: { appCode: 'TON_PROOF_INVALID', params: { reason: 'domain_not_allowed' } },
    });
    expect(await WalletLinkModel.countDocuments({ address: wallet.address.toRawString() })).toBe(0);
    const linked = await call('link', await sign(DOMAIN)).expect(200);
    expect(linked.body.result.data.json.address).toMatch(/^UQ/);
  });

  it('takes its domains from configuration only: PUBLIC_URL, App Config, and localhost:PORT for the development demo', async () => {
    await AppConfigModel.findOneAndUpdate({ key: 'app' }, { $set: { tonProofDomains: ['t.me'] } }, { upsert: true });
    expect(await allowedProofDomains(testEnv({ PUBLIC_URL: 'https://gift.example' }))).toEqual(['https://gift.example', 't.me']);
    expect(await allowedProofDomains(testEnv({ NODE_ENV: 'production', MONGO_URL: 'mongodb://db/gift' }))).toEqual(['t.me']);
    expect(await allowedProofDomains(testEnv({ NODE_ENV: 'development', PORT: '3000' }))).toEqual(['http://localhost:3000', 't.me']);
  });
});
