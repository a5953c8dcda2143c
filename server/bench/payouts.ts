/**
 * `npm run bench:payouts [-- --count 600]`: automated payouts on the TON stand-in (@ton/sandbox behind TON Center's
 * v2 API, through the product's own HTTP client), against the embedded database in a process of its own. Half the
 * withdrawals in TON, half in a jetton, all approved at once; the hot wallet's sender then runs round after round
 * until every one is confirmed on chain. Prints payouts confirmed per minute, and database and chain calls per payout.
 */
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { httpTonChain, type TonChain } from '../src/lib/ton/tonChain';
import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from '../src/lib/ton/hotWallet';
import { WalletLinkModel } from '../src/modules/wallet/wallet.models';
import { configurePayouts } from '../src/modules/withdrawals/chainPayments';
import { runPayoutRound } from '../src/modules/withdrawals/payouts.service';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';
import { registerMoneyKinds } from '../src/moneyKinds';
import { startTonStandIn } from '../devchain/standIn';
import { createCoin, createPlayer, fund, playerCaller, randomAddress } from '../test/factories';
import { runOnFreshDatabase } from './loopback';

/** The chain client, counting its calls by method. */
function counted(chain: TonChain, calls: Map<string, number>): TonChain {
  const count = (method: string) => calls.set(method, (calls.get(method) ?? 0) + 1);
  return {
    account: (...args) => (count('account'), chain.account(...args)),
    transactions: (...args) => (count('transactions'), chain.transactions(...args)),
    jettonWallet: (...args) => (count('jettonWallet'), chain.jettonWallet(...args)),
    jettonBalance: (...args) => (count('jettonBalance'), chain.jettonBalance(...args)),
    sendExternal: (...args) => (count('sendExternal'), chain.sendExternal(...args)),
    runGetMethod: (...args) => (count('runGetMethod'), chain.runGetMethod(...args)),
  };
}

runOnFreshDatabase('bench-payouts', async (database) => {
  // the engine refuses kinds this process has not registered (the withdrawal's request, its decision)
  registerMoneyKinds();
  const { values } = parseArgs({ options: { count: { type: 'string', default: '600' } } });
  const count = Number(values.count);
  const standIn = await startTonStandIn();
  const chainCalls = new Map<string, number>();
  configurePayouts({
    chain: counted(httpTonChain({ root: standIn.root }), chainCalls),
    hotWallet: await hotWalletFromMnemonic(DEMO_PAYOUT_MNEMONIC),
    network: 'mainnet',
  });

  const [ton, gift] = await Promise.all([
    createCoin({ symbol: 'TON', network: 'ton', decimals: 9, minWithdraw: '0.1' }),
    createCoin({ symbol: 'GIFT', network: 'jetton', jettonMaster: standIn.jettons.GIFT, decimals: 9, minWithdraw: '0.1' }),
  ]);
  process.stdout.write(`preparing ${count} approved withdrawals (${database.kind})…\n`);
  for (let i = 0; i < count; i++) {
    const coin = i % 2 ? gift : ton;
    const player = await createPlayer();
    await fund(player._id, coin._id, '10');
    await WalletLinkModel.create({ address: randomAddress().toRawString(), user: player._id, network: '-239' });
    await playerCaller(player).withdrawals.request({ coinId: coin.id, amount: '1.25', idempotencyKey: `bench-payout-${i}` });
  }
  await WithdrawalModel.updateMany({ status: 'pending' }, { $set: { status: 'approved', approvedAt: new Date() } });

  let databaseCalls = 0;
  mongoose.set('debug', () => void databaseCalls++);
  const started = performance.now();
  let rounds = 0;
  while ((await WithdrawalModel.countDocuments({ status: 'done' })) < count) {
    await runPayoutRound();
    rounds++;
    if (rounds > 200) throw new Error('payouts did not finish in 200 rounds');
  }
  const seconds = (performance.now() - started) / 1000;
  mongoose.set('debug', false);

  const totalChain = [...chainCalls.values()].reduce((a, b) => a + b, 0);
  const perPayout = (n: number) => (n / count).toFixed(2);
  process.stdout.write(
    [
      '',
      `payouts confirmed: ${count} in ${seconds.toFixed(1)} s over ${rounds} sender rounds: ${Math.round((count / seconds) * 60)} per minute`,
      `database calls per payout: ${perPayout(databaseCalls)}`,
      `chain calls per payout: ${perPayout(totalChain)} (${[...chainCalls.entries()].map(([method, n]) => `${method} ${perPayout(n)}`).join(', ')})`,
      '',
    ].join('\n'),
  );
  await standIn.close();
});
