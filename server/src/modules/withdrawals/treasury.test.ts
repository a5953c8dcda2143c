import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from '../../lib/ton/hotWallet';
import type { TonChain } from '../../lib/ton/tonChain';
import { createCoin } from '../../../test/factories';
import { configurePayouts, payoutRuntime } from './chainPayments';
import { lastKnownHotWalletBalances, treasury } from './treasury';

/** A chain whose account reads answer with `balance`, or hang until `release` is called. */
function controllableChain() {
  let hanging: Array<() => void> = [];
  const chain = {
    balance: 7_500_000_000n,
    hang: false,
    release() {
      for (const resume of hanging) resume();
      hanging = [];
    },
    async account() {
      if (chain.hang) await new Promise<void>((resume) => hanging.push(resume));
      return { state: 'active' as const, balance: chain.balance, chainTime: Math.floor(Date.now() / 1000), lastTransaction: null };
    },
  };
  return chain;
}

describe('the treasury when the chain is slow', () => {
  const before = payoutRuntime();
  afterAll(() => configurePayouts(before));

  it('answers with the last known balances and their time when the chain hangs, and fresh ones once it answers', async () => {
    const coin = await createCoin({ network: 'ton', symbol: 'TSLOW' });
    const chain = controllableChain();
    configurePayouts({
      chain: chain as unknown as TonChain,
      hotWallet: await hotWalletFromMnemonic(DEMO_PAYOUT_MNEMONIC),
      network: 'mainnet',
    });

    const fresh = await treasury();
    expect(fresh.coins.find((row) => row.coin === coin.id)?.balance).toBe('7.5');
    expect(fresh).toMatchObject({ balancesFresh: true, stopped: '' });
    const readAt = fresh.balancesAsOf!;

    // the chain hangs: the page answers after the wait, with the last balances and the time they were read
    chain.hang = true;
    chain.balance = 9_000_000_000n;
    // (the chain never answers this read: the page answering at all is what is tested)
    const stale = await treasury();
    expect(stale.coins.find((row) => row.coin === coin.id)?.balance).toBe('7.5');
    expect(stale).toMatchObject({ balancesFresh: false, balancesAsOf: readAt, stopped: expect.stringMatching(/last known/) });
    expect((await lastKnownHotWalletBalances()).bySymbol.get('TSLOW')).toBe('7.5');

    // the chain answers the read that was waiting: the next load shows the new balance at once
    chain.hang = false;
    chain.release();
    await new Promise((resolve) => setImmediate(resolve));
    const after = await treasury();
    expect(after.coins.find((row) => row.coin === coin.id)?.balance).toBe('9');
    expect(after.balancesFresh).toBe(true);
    expect(after.balancesAsOf!.getTime()).toBeGreaterThan(readAt.getTime());
  });
});
