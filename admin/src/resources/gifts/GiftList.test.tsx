import { screen, waitFor, within } from '@testing-library/react';
import { OPERATOR, refusal, rejectWithReason, renderScreen } from '../../../test/renderScreen';

const GIFT = {
  id: 'g1',
  user: 'u1',
  coin: 'c1',
  amount: '2500',
  note: 'Winner of the March contest',
  requestedBy: 'a2',
  status: 'pending',
  reason: 'threshold',
  rejectReason: '',
  createdAt: '2026-03-01T10:00:00.000Z',
};
/** A gift the signed-in operator asked for: theirs to withdraw, not to approve. */
const OWN_GIFT = { ...GIFT, id: 'g2', amount: '-40', note: 'Correction of a double credit', requestedBy: OPERATOR.id };

const routes = (approve: unknown = { ...GIFT, status: 'applied' }) => ({
  'GET /gifts': [GIFT, OWN_GIFT],
  'GET /users': [{ id: 'u1', name: 'Ali Rezaei', username: 'ali' }],
  'GET /gift-coins': [{ id: 'c1', name: 'Gift Coin', symbol: 'GIFT' }],
  'GET /accounts': [
    { id: 'a2', username: 'reza' },
    { id: OPERATOR.id, username: OPERATOR.username },
  ],
  'POST /gifts/g1/approve': approve,
  'POST /gifts/g1/reject': { ...GIFT, status: 'rejected' },
});

const rowOf = async (note: string) => (await screen.findByText(note)).closest('tr')!;

it('lists the gifts waiting, with who asked, why they wait, and approve turned off on a gift the operator asked for', async () => {
  const { sent } = renderScreen('/admin/gifts', { routes: routes() });
  const row = await rowOf('Winner of the March contest');
  expect(within(row).getByText('+2500')).toBeInTheDocument();
  expect(await within(row).findByText('GIFT')).toBeInTheDocument();
  expect(await within(row).findByText('reza')).toBeInTheDocument();
  expect(within(row).getByText('Above the threshold')).toBeInTheDocument();
  expect(within(row).getByRole('button', { name: 'Approve' })).toBeEnabled();
  // the list asks for the gifts that wait
  expect(JSON.parse(sent('GET /gifts')[0]!.query.get('filter')!)).toEqual({ status: 'pending' });

  const own = await rowOf('Correction of a double credit');
  expect(within(own).getByText('-40')).toBeInTheDocument();
  const approveOwn = within(own).getByRole('button', { name: 'Approve' });
  expect(approveOwn).toBeDisabled();
  expect(approveOwn).toHaveAttribute('title', 'You asked for it: another operator approves');
  expect(within(own).getByRole('button', { name: 'Reject' })).toBeEnabled();
});

it("approves a waiting gift after confirming its amount: POST /gifts/g1/approve with the operator's token", async () => {
  const { sent, user } = renderScreen('/admin/gifts', { routes: routes() });
  await user.click(within(await rowOf('Winner of the March contest')).getByRole('button', { name: 'Approve' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('+2500 goes to the player now, in your name beside the operator who asked.')).toBeInTheDocument();
  expect(sent('POST /gifts/g1/approve')).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
  expect(await screen.findByText('Approved: the balance is credited')).toBeInTheDocument();
  const [approval, ...more] = sent('POST /gifts/g1/approve');
  expect(more).toHaveLength(0);
  expect(approval!.headers.get('Authorization')).toBe('Bearer test-token');
  expect(sent('POST /gifts/g2/approve')).toHaveLength(0);
});

it("shows the server's four-eyes refusal as it wrote it, and the gift still waits", async () => {
  const message = 'A second operator must approve this gift: the operator who asked set your password';
  const { sent, user } = renderScreen('/admin/gifts', { routes: routes(refusal(403, message, 'FORBIDDEN')) });
  await user.click(within(await rowOf('Winner of the March contest')).getByRole('button', { name: 'Approve' }));
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
  expect(await screen.findByText(message)).toBeInTheDocument();
  expect(sent('POST /gifts/g1/approve')).toHaveLength(1);
  expect(screen.queryByText('Approved: the balance is credited')).not.toBeInTheDocument();
  // the confirmation stays open over a gift that still waits
  expect(screen.getByRole('dialog')).toBeInTheDocument();
  expect(within(await rowOf('Winner of the March contest')).getByText('Waiting for approval')).toBeInTheDocument();
});

it('rejects a waiting gift with the reason typed: POST /gifts/g1/reject { rejectReason }', async () => {
  const { sent, user } = renderScreen('/admin/gifts', { routes: routes() });
  await rejectWithReason(user, await rowOf('Winner of the March contest'), 'Not in the contest rules');
  await waitFor(() => expect(sent('POST /gifts/g1/reject')).toHaveLength(1));
  expect(sent('POST /gifts/g1/reject')[0]!.body).toEqual({ rejectReason: 'Not in the contest rules' });
  expect(await screen.findByText('Rejected')).toBeInTheDocument();
});

it('speaks Persian: the status and why it waits', async () => {
  renderScreen('/admin/gifts', { routes: routes(), locale: 'fa' });
  const row = await rowOf('Winner of the March contest');
  expect(within(row).getByText('منتظر تأیید')).toBeInTheDocument();
  expect(within(row).getByText('بالاتر از آستانه')).toBeInTheDocument();
  expect(within(row).getByRole('button', { name: 'تأیید' })).toBeEnabled();
});
