import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/renderScreen';

const PAID = {
  id: '65f0000000000000000000b1',
  user: '65f0000000000000000000c1',
  userName: 'Sara',
  username: 'sara',
  offer: '65f0000000000000000000a1',
  title: 'Double mining',
  kind: 'multiplier',
  stars: 1200,
  multiplierPercent: 200,
  currency: 'XTR',
  status: 'paid',
  chargeId: 'charge-77',
  boost: 'ready',
  paidAt: '2026-11-20T10:00:00.000Z',
  refundedAt: null,
  createdAt: '2026-11-20T09:59:00.000Z',
};
const REVENUE = { stars: 1200, purchases: 1, refundedStars: 0, refunds: 0, days: [{ day: '2026-11-20', stars: 1200 }] };

it('refunds a paid purchase only after the operator confirms, naming the Stars and the player, and says what became of the boost', async () => {
  const { sent, user } = renderScreen(`/admin/star-purchases/${PAID.id}/show`, {
    routes: {
      [`GET /star-purchases/${PAID.id}`]: PAID,
      'GET /star-purchases/revenue': REVENUE,
      [`POST /star-purchases/${PAID.id}/refund`]: { ...PAID, status: 'refunded', boost: 'revoked' },
    },
  });
  await screen.findByText('charge-77');
  await user.click(await screen.findByRole('button', { name: 'Refund' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('Refund 1,200 Stars?')).toBeInTheDocument();
  expect(within(dialog).getByText(/Telegram returns 1,200 Stars to Sara \(@sara\)/)).toBeInTheDocument();
  expect(sent(`POST /star-purchases/${PAID.id}/refund`)).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
  expect(await screen.findByText('Refunded 1,200 Stars; the boost was taken back')).toBeInTheDocument();
  expect(sent(`POST /star-purchases/${PAID.id}/refund`)).toHaveLength(1);
});

it('offers no Refund for a purchase already refunded', async () => {
  renderScreen(`/admin/star-purchases/${PAID.id}/show`, {
    routes: { [`GET /star-purchases/${PAID.id}`]: { ...PAID, status: 'refunded', boost: 'revoked' } },
  });
  await screen.findByText('charge-77');
  expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
});

it('shows a read-only operator the purchase in Persian, without Refund', async () => {
  renderScreen(`/admin/star-purchases/${PAID.id}/show`, {
    locale: 'fa',
    permissions: ['star-purchases:read'],
    routes: { [`GET /star-purchases/${PAID.id}`]: PAID },
  });
  await screen.findByText('charge-77');
  expect(screen.getByText('داده شده، استفاده نشده')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'بازپرداخت' })).not.toBeInTheDocument();
});
