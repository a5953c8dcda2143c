// The operator's payout flow in a real Chromium, against the TON stand-in (@ton/sandbox behind TON Center's API):
// approve in the console, the treasury shows the batch, the player's history turns to done with its transaction.
import { Address, toNano } from '@ton/core';
import { JettonWallet } from '@ton-community/assets-sdk/dist/jetton/JettonWallet';
import { onFault } from '../server/src/lib/faults';
import { jettonWalletOf } from '../server/src/modules/withdrawals/chainPayments';
import { WalletLinkModel } from '../server/src/modules/wallet/wallet.models';
import { runPayoutRound } from '../server/src/modules/withdrawals/payouts.service';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { createCoin, createPlayer, fund, playerCaller, randomAddress } from '../server/test/factories';
import { useTonTestChain } from '../server/test/tonChain';
import { useProduct } from './fixture';
import { shot } from './support';

jest.setTimeout(240_000);

const ton = useTonTestChain();
const product = useProduct({ telegram: true, operators: [{ username: 'treasurer', permissions: ['withdraws:write', 'users:read'] }] });

it('approves in the console, the treasury shows the batch, and the player sees it done with its transaction', async () => {
  const coin = await createCoin({ symbol: 'TON', name: 'Toncoin', network: 'ton', decimals: 9, minWithdraw: '0.5' });
  const player = await createPlayer({ name: 'Reza Karimi', username: 'reza_k' });
  await fund(player._id, coin._id, '20');
  const address = randomAddress();
  await WalletLinkModel.create({ address: address.toRawString(), user: player._id, network: '-239' });
  const withdrawal = await playerCaller(player).withdrawals.request({ coinId: coin.id, amount: '3.5', idempotencyKey: 'e2e-payout' });

  const page = await product.signInOperator('treasurer');

  // approve from the pending list, with the bulk button
  await page.goto(`${product.base}/admin/withdraw`);
  const row = page.getByRole('row').filter({ hasText: 'Reza Karimi' });
  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Approve for payout' }).click();
  await page.getByRole('dialog').getByText('The hot wallet pays the selected withdrawals.', { exact: false }).waitFor();
  await shot(page, 'payouts-approve-confirm-desktop');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await row.getByText('Approved').waitFor();
  await shot(page, 'payouts-approved-desktop');
  expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({ status: 'approved' });

  // the hot wallet's sender signs and sends a batch; the network loses it for now, so it is in flight
  await ton.control({ dropSends: 1000 });
  await runPayoutRound();
  await page.getByRole('link', { name: 'Treasury' }).click();
  await page.waitForURL(`${product.base}/admin/treasury`);
  await page.getByTestId('treasury-batch').filter({ hasText: 'sent' }).waitFor();
  await expect(page.getByTestId('treasury-hot-wallet').textContent()).resolves.toContain(ton.standIn.hotWallet);
  await shot(page, 'payouts-treasury-batch-in-flight-desktop');
  // the switch is on while the hot wallet pays, and says so (issue 34, defect 5)
  await expect(page.getByRole('switch', { name: 'Payouts running' }).isChecked()).resolves.toBe(true);
  await expect(page.getByTestId('treasury-shortfall-TON').count()).resolves.toBe(0);
  // a withdrawal waiting for more than the hot wallet holds is called out, with both figures
  const huge = await WithdrawalModel.create({
    user: player._id,
    coin: coin._id,
    amount: 5_000_000_000_000_000,
    address: address.toRawString(),
    status: 'pending',
    idempotencyKey: 'e2e-shortfall',
  });
  const shortfall = page.getByTestId('treasury-shortfall-TON');
  await shortfall.getByText('add up to 5000000003.5, more than the', { exact: false }).waitFor();
  await shot(page, 'payouts-treasury-shortfall-desktop');
  await WithdrawalModel.deleteOne({ _id: huge._id });
  await shortfall.waitFor({ state: 'detached' });

  // the same message, re-sent unchanged, lands; the player's address shows the payment
  await ton.control({ dropSends: 0 });
  await runPayoutRound();
  await runPayoutRound();
  const paid = await WithdrawalModel.findById(withdrawal.id).lean();
  expect(paid).toMatchObject({ status: 'done', payout: expect.objectContaining({ state: 'confirmed' }) });
  expect((await ton.chain.account(address)).balance).toBe(3_500_000_000n);
  await page.goto(`${product.base}/admin/withdraw/done`);
  const doneRow = page.getByRole('row').filter({ hasText: 'Reza Karimi' });
  await doneRow.waitFor();
  // the hash opens the transaction in the explorer (issue 34, defect 6)
  await expect(doneRow.locator('a[href^="https://tonviewer.com/"]').getAttribute('href')).resolves.toBe(
    `https://tonviewer.com/transaction/${paid!.txHash}`,
  );
  await shot(page, 'payouts-done-desktop');
  await page.goto(`${product.base}/admin/withdraws/${withdrawal.id}`);
  await page.getByText('The hot wallet (automated payout)').waitFor();

  const app = await product.openPlayer('/profile/withdraw', { id: player.telegramId, first_name: 'Reza', language_code: 'en' });
  const item = app.getByTestId('withdrawal').first();
  await item.getByText('Done').waitFor();
  await expect(item.getByRole('link', { name: 'View transaction' }).getAttribute('href')).resolves.toBe(
    `https://tonviewer.com/transaction/${paid!.txHash}`,
  );
  await shot(app, 'payouts-player-history-done-phone');
  await app.close();
  await page.close();
});

it('a jetton payout that failed on chain comes back to the pending list marked bounced, with the reason, in English and Persian', async () => {
  const coin = await createCoin({
    symbol: 'GIFT',
    name: 'Gift',
    network: 'jetton',
    jettonMaster: ton.standIn.jettons.GIFT!,
    decimals: 9,
    minWithdraw: '1',
  });
  const player = await createPlayer({ name: 'Sara Ahmadi', username: 'sara_a' });
  await fund(player._id, coin._id, '500');
  const address = randomAddress();
  await WalletLinkModel.create({ address: address.toRawString(), user: player._id, network: '-239' });
  const withdrawal = await playerCaller(player).withdrawals.request({ coinId: coin.id, amount: '200', idempotencyKey: 'e2e-bounced' });
  await WithdrawalModel.updateOne({ _id: withdrawal.id }, { $set: { status: 'approved', approvedAt: new Date() } });

  // between signing and sending, the hot wallet's jettons are moved away: its jetton wallet refuses the transfer
  const hot = Address.parse(ton.standIn.hotWallet);
  const hotJettons = await jettonWalletOf(ton.chain, Address.parse(ton.standIn.jettons.GIFT!), hot);
  const aside = randomAddress();
  onFault(async (point, kind, step) => {
    // the batch signed and recorded, not sent yet
    if ([point, kind, step].join(':') !== 'ledger:after-step:payout-batch:sign') return;
    onFault(null);
    await ton.standIn.blockchain
      .openContract(JettonWallet.createFromAddress(hotJettons))
      .send(ton.standIn.blockchain.sender(hot), aside, await ton.chain.jettonBalance(hotJettons), { value: toNano('0.2') });
  });
  for (let round = 0; round < 3; round++) await runPayoutRound();
  onFault(null);
  expect(await WithdrawalModel.findById(withdrawal.id).lean()).toMatchObject({
    status: 'pending',
    payout: expect.objectContaining({ state: 'bounced' }),
  });

  // the browser profile still holds the test before's session: sign out first
  const page = await product.signInOperator('treasurer', { signOutFirst: true });
  await page.goto(`${product.base}/admin/withdraw`);
  const row = page.getByRole('row').filter({ hasText: 'Sara Ahmadi' });
  await row.getByText('Bounced').waitFor();
  await shot(page, 'console-withdrawal-bounced-list');
  await page.goto(`${product.base}/admin/withdraws/${withdrawal.id}`);
  const alert = page.getByTestId('withdrawal-bounced');
  await alert.getByText('The automated payout did not arrive').waitFor();
  await expect(alert.textContent()).resolves.toMatch(
    /The GIFT transfer failed in the payout wallet's jetton wallet \(exit code \d+\): no GIFT left it/,
  );
  await page.getByText('Bounced', { exact: true }).waitFor();
  await shot(page, 'console-withdrawal-bounced');

  await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('fa')));
  await page.reload();
  await page.getByTestId('withdrawal-bounced').getByText('پرداخت خودکار به مقصد نرسید').waitFor();
  await page.getByText('برگشت خورد', { exact: true }).waitFor();
  await shot(page, 'console-withdrawal-bounced-fa');
  await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en')));
  await page.close();
});
