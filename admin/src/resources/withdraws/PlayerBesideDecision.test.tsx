import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/renderScreen';

const WITHDRAWAL = {
  id: 'w1',
  user: 'u1',
  userName: 'Farid',
  username: 'farid',
  playerRisk: { score: 104, level: 'high' },
  playerJoinedAt: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString(),
  coin: 'c1',
  coinSymbol: 'GIFT',
  amount: '1645',
  address: 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG',
  status: 'pending',
  chainState: '',
  chainNote: '',
  createdAt: '2026-03-01T10:00:00.000Z',
};
const PAGE = {
  ...WITHDRAWAL,
  balance: '12.5',
  paid: { count: 2, amount: '300' },
  earlier: [{ id: 'w0', amount: '150', symbol: 'GIFT', status: 'done', address: 'UQx', createdAt: '2026-02-20T09:00:00.000Z' }],
  riskHeld: true,
};

it('lists each pending withdrawal with its player’s risk', async () => {
  renderScreen('/admin/withdraw', { routes: { 'GET /withdraws': [WITHDRAWAL] } });
  const row = (await screen.findByText('1645 GIFT')).closest('tr')!;
  expect(within(row).getByText('104 · High')).toBeInTheDocument();
});

it('shows the player beside the decision: risk, a hold, age, balance, what was paid before and the latest withdrawals', async () => {
  renderScreen('/admin/withdraws/w1', { routes: { 'GET /withdraws/w1': PAGE } });
  const panel = await screen.findByTestId('withdrawal-player');
  expect(within(panel).getByText('The player: Farid')).toBeInTheDocument();
  expect(within(panel).getByText('104 · High')).toBeInTheDocument();
  expect(within(panel).getByRole('alert')).toHaveTextContent('Their risk holds this payout');
  expect(within(panel).getByRole('link', { name: 'Their risk' })).toHaveAttribute('href', '/admin/users/u1/show/risk');
  expect(panel).toHaveTextContent('Joined 3 days ago');
  expect(panel).toHaveTextContent('Balance now: 12.5 GIFT');
  expect(panel).toHaveTextContent('Paid before: 2 withdrawals, 300 GIFT');
  expect(within(within(panel).getByRole('list', { name: 'Their latest withdrawals' })).getByText(/^150 GIFT · Done/)).toBeInTheDocument();
});

it('says nothing of a hold when the risk does not hold the payout, in Persian too', async () => {
  renderScreen('/admin/withdraws/w1', {
    routes: { 'GET /withdraws/w1': { ...PAGE, riskHeld: false, playerRisk: { score: 5, level: 'low' }, earlier: [] } },
    locale: 'fa',
  });
  const panel = await screen.findByTestId('withdrawal-player');
  expect(within(panel).queryByRole('alert')).toBeNull();
  expect(panel).toHaveTextContent('بازیکن: Farid');
  expect(panel).toHaveTextContent('برداشت پیشینی ندارد.');
});
