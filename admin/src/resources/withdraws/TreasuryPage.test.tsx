import { screen, waitFor, within } from '@testing-library/react';
import type { Treasury } from '@gift/server';
import { renderScreen, type SentRequest } from '../../../test/renderScreen';

const TON = 'c'.repeat(24);
const GIFT = 'd'.repeat(24);

/** A hot wallet paying TON and GIFT; TON's pending withdrawals are more than it holds of TON. */
const TREASURY: Treasury = {
  id: 'treasury',
  mode: 'automated',
  network: 'testnet',
  hotWallet: 'UQHotWalletAddressForTests',
  coins: [
    { coin: TON, symbol: 'TON', balance: '99999', paidToday: '12.5', dailyCap: '0', secondApprovalAbove: '500', warnBelow: '0' },
    { coin: GIFT, symbol: 'GIFT', balance: '5000.25', paidToday: '0', dailyCap: '20000', secondApprovalAbove: '0', warnBelow: '0' },
  ],
  balancesAsOf: new Date('2026-03-01T10:00:00.000Z'),
  balancesFresh: true,
  paused: false,
  stopped: '',
  owed: [
    { coin: TON, status: 'pending', total: '150000', count: 3 },
    { coin: GIFT, status: 'approved', total: '5000.25', count: 2 },
  ],
  batches: [],
  warnings: [{ coin: TON, symbol: 'TON', balance: '99999', why: 'pending', threshold: '0', pending: '150000' }],
};

/** The treasury routes, with the pause switch kept as the server keeps it. */
function treasuryAt(treasury: Treasury) {
  let current = treasury;
  return {
    'GET /treasury/treasury': () => current,
    'PUT /treasury/treasury': ({ body }: SentRequest) => (current = { ...current, ...(body as { paused: boolean }) }),
  };
}

it('shows each coin: what the hot wallet holds, what waits, is approved or is being sent, and the caps', async () => {
  renderScreen('/admin/treasury', { routes: treasuryAt(TREASURY) });
  const ton = await screen.findByTestId('treasury-coin-TON');
  expect([...ton.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
    'TON',
    '99999',
    '150000 (3)',
    '0',
    '0',
    '12.5 / no cap',
    '500',
  ]);
  const gift = screen.getByTestId('treasury-coin-GIFT');
  expect([...gift.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
    'GIFT',
    '5000.25',
    '0',
    '5000.25 (2)',
    '0',
    '0 / 20000',
    'never',
  ]);
  expect(screen.getByTestId('treasury-hot-wallet')).toHaveTextContent('UQHotWalletAddressForTests (testnet)');
  expect(screen.getByText('No batch in flight.')).toBeInTheDocument();
});

it('warns of a shortfall where pending payouts exceed the hot wallet, and only there', async () => {
  renderScreen('/admin/treasury', { routes: treasuryAt(TREASURY) });
  expect(await screen.findByTestId('treasury-shortfall-TON')).toHaveTextContent(
    'TON: withdrawals waiting, approved or being sent add up to 150000, more than the 99999 the hot wallet holds. Top it up, or they wait.',
  );
  // GIFT owes exactly what it holds: enough
  expect(screen.queryByTestId('treasury-shortfall-GIFT')).not.toBeInTheDocument();
});

it('adds up what each coin owes exactly: a millionth more than the balance is a shortfall', async () => {
  const treasury: Treasury = {
    ...TREASURY,
    owed: [
      { coin: TON, status: 'pending', total: '99998.5', count: 1 },
      { coin: TON, status: 'sending', total: '0.500001', count: 1 },
      { coin: GIFT, status: 'pending', total: '5000.249999', count: 1 },
    ],
  };
  renderScreen('/admin/treasury', { routes: treasuryAt(treasury) });
  expect(await screen.findByTestId('treasury-shortfall-TON')).toHaveTextContent('add up to 99999.000001, more than the 99999');
  expect(screen.queryByTestId('treasury-shortfall-GIFT')).not.toBeInTheDocument();
});

it('reads "Payouts running" with the switch on, and switching it off sends PUT /treasury/treasury { paused: true }', async () => {
  const { sent, user } = renderScreen('/admin/treasury', { routes: treasuryAt(TREASURY) });
  const running = await screen.findByRole('switch', { name: 'Payouts running' });
  expect(running).toBeChecked();
  await user.click(running);
  await waitFor(() => expect(sent('PUT /treasury/treasury')).toHaveLength(1));
  expect(sent('PUT /treasury/treasury')[0]!.body).toEqual({ paused: true });
  expect(await screen.findByRole('switch', { name: 'Payouts paused' })).not.toBeChecked();
});

it('reads "Payouts paused" with the switch off, and switching it on sends { paused: false }', async () => {
  const { sent, user } = renderScreen('/admin/treasury', { routes: treasuryAt({ ...TREASURY, paused: true }) });
  const paused = await screen.findByRole('switch', { name: 'Payouts paused' });
  expect(paused).not.toBeChecked();
  await user.click(paused);
  await waitFor(() => expect(sent('PUT /treasury/treasury')).toHaveLength(1));
  expect(sent('PUT /treasury/treasury')[0]!.body).toEqual({ paused: false });
  expect(await screen.findByText('Payouts resumed')).toBeInTheDocument();
  expect(await screen.findByRole('switch', { name: 'Payouts running' })).toBeChecked();
});

it('without a hot wallet: the switch is off and cannot be moved, and no shortfall is claimed', async () => {
  renderScreen('/admin/treasury', { routes: treasuryAt({ ...TREASURY, hotWallet: null, mode: 'manual' }) });
  expect(await screen.findByText(/^No hot wallet: withdrawals are paid by hand/)).toBeInTheDocument();
  const running = screen.getByRole('switch', { name: 'No automated payouts: no hot wallet' });
  expect(running).not.toBeChecked();
  expect(running).toBeDisabled();
  expect(screen.queryByTestId('treasury-shortfall-TON')).not.toBeInTheDocument();
});

it('speaks Persian: the switch, the warning and the columns', async () => {
  renderScreen('/admin/treasury', { routes: treasuryAt(TREASURY), locale: 'fa' });
  expect(await screen.findByRole('switch', { name: 'پرداخت‌ها در جریان است' })).toBeChecked();
  expect(screen.getByTestId('treasury-shortfall-TON')).toHaveTextContent(/بیش از .*99999.* موجودی کیف‌پول داغ/);
  expect(within(screen.getByRole('table', { name: 'سکه‌ها' })).getByText('سکه')).toBeInTheDocument();
});

it('warns while the hot wallet is under the threshold set for a coin, and saves a new threshold', async () => {
  let current: Treasury = {
    ...TREASURY,
    coins: TREASURY.coins.map((coin) => (coin.symbol === 'GIFT' ? { ...coin, warnBelow: '6000' } : coin)),
  };
  const { sent, user } = renderScreen('/admin/treasury', {
    routes: {
      'GET /treasury/treasury': () => current,
      'PUT /treasury/threshold': ({ body }: SentRequest) => {
        const { coin, below } = body as { coin: string; below: string };
        current = { ...current, coins: current.coins.map((row) => (row.coin === coin ? { ...row, warnBelow: below } : row)) };
        return current;
      },
    },
  });
  expect(await screen.findByTestId('treasury-low-GIFT')).toHaveTextContent(
    'GIFT: the hot wallet holds 5000.25, under the 6000 threshold set for it. Top it up.',
  );
  expect(screen.queryByTestId('treasury-low-TON')).not.toBeInTheDocument();

  // Persian digits typed in the field are read as the amount
  const field = screen.getByTestId('treasury-threshold-GIFT');
  await user.clear(field);
  await user.type(field, '۵۰۰۰');
  await user.click(within(field.closest('form')!).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(sent('PUT /treasury/threshold')[0]?.body).toEqual({ coin: GIFT, below: '5000' }));
  await waitFor(() => expect(screen.queryByTestId('treasury-low-GIFT')).not.toBeInTheDocument());
});

it('says the sender stopped by itself instead of "Payouts running" while the switch is on', async () => {
  renderScreen('/admin/treasury', { routes: treasuryAt({ ...TREASURY, stopped: 'not enough TON in the hot wallet' }) });
  expect(await screen.findByRole('switch', { name: 'Payouts on, but stopped by the sender: see why above' })).toBeChecked();
  expect(screen.getByTestId('treasury-stopped')).toHaveTextContent('not enough TON in the hot wallet');
});
