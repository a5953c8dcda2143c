import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/renderScreen';

const HOUR = 60 * 60 * 1000;
const claim = (id: string, hoursAgo: number) => ({
  id,
  user: 'u1',
  mission: 'm1',
  status: 'pending',
  reward: '5',
  coinSymbol: 'GIFT',
  claimedAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
  createdAt: new Date(Date.now() - (hoursAgo + 1) * HOUR).toISOString(),
  proof: { link: '', text: '', imageId: '' },
  playerRisk: { score: 62, level: 'high' },
});

it('works the queue oldest claim first, with how long each has waited and its player’s risk', async () => {
  const { sent } = renderScreen('/admin/user-missions', { routes: { 'GET /user-missions': [claim('c1', 50), claim('c2', 3)] } });
  const waited = await screen.findAllByTestId('claim-waiting');
  expect(waited.map((cell) => cell.textContent)).toEqual(['2 days ago', '3 hr. ago']);
  expect(within(waited[0]!.closest('tr')!).getByText('62 · High')).toBeInTheDocument();
  // the list itself (the tabs' counts ask apart, one row each)
  const listed = sent('GET /user-missions').filter((request) => JSON.parse(request.query.get('range')!)[1] > 0);
  expect(listed.map((request) => JSON.parse(request.query.get('sort')!))).toEqual([['claimedAt', 'ASC']]);
});

it('says how long in Persian too', async () => {
  renderScreen('/admin/user-missions', { routes: { 'GET /user-missions': [claim('c2', 3)] }, locale: 'fa' });
  expect(await screen.findByTestId('claim-waiting')).toHaveTextContent('۳ ساعت پیش');
});

it('says who has a claim open, and keeps it out of a bulk selection', async () => {
  const held = { ...claim('c1', 50), lockedBy: 'a2', lockedByName: 'bob', lockedUntil: new Date(Date.now() + 4 * 60_000).toISOString() };
  // a hold that ran out is no one's
  const expired = { ...claim('c3', 5), lockedBy: 'a3', lockedByName: 'carol', lockedUntil: new Date(Date.now() - 60_000).toISOString() };
  const { user } = renderScreen('/admin/user-missions', { routes: { 'GET /user-missions': [held, claim('c2', 3), expired] } });
  const chip = await screen.findByTestId('claim-held');
  expect(chip).toHaveTextContent('Being reviewed by bob');
  expect(screen.getAllByTestId('claim-held')).toHaveLength(1);
  const rows = screen.getAllByTestId('claim-waiting').map((cell) => cell.closest('tr')!);
  expect(within(rows[0]!).getByRole('checkbox')).toBeDisabled();
  expect(within(rows[1]!).getByRole('checkbox')).toBeEnabled();
  await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
  expect(await screen.findByText('2 items selected')).toBeInTheDocument();
});
