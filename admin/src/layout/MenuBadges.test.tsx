import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../test/renderScreen';

const COUNTS = { id: 'counts', claims: 14, withdrawals: 3, approvals: 2, payoutsStopped: true };

it('shows what waits beside the menu items: claims, withdrawals, approvals on the dashboard, and payouts stopped', async () => {
  renderScreen('/admin/gifts', { routes: { 'GET /alerts/counts': COUNTS } });
  expect(await screen.findByLabelText('14 claims waiting review')).toHaveTextContent('14');
  expect(screen.getByLabelText('3 withdrawals waiting for a decision')).toHaveTextContent('3');
  // gifts, access and brake changes are each counted and linked on the dashboard: their sum beside it
  const approvals = screen.getByLabelText('2 gifts, access or brake changes waiting for you');
  expect(approvals).toHaveTextContent('2');
  expect(approvals.closest('a')).toHaveAttribute('href', '/admin/');
  expect(screen.getByLabelText('Payouts stopped')).toHaveTextContent('Stopped');
});

it('shows only the counts the server answers for the permissions, in Persian digits in Persian', async () => {
  renderScreen('/admin/user-missions', { routes: { 'GET /alerts/counts': { id: 'counts', claims: 14 } }, locale: 'fa' });
  const badge = await screen.findByTestId('menu-badge-claims');
  expect(badge).toHaveTextContent('۱۴');
  expect(within(document.body).queryByTestId('menu-badge-withdrawals')).not.toBeInTheDocument();
  expect(within(document.body).queryByTestId('menu-badge-payoutsStopped')).not.toBeInTheDocument();
});
