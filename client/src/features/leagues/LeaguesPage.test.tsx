import { screen, within } from '@testing-library/react';
import { renderApp, renderAppInPersian, signedInPlayer } from '../../../test/renderApp';
import { initI18n, setLanguage } from '../../lib/i18n';

const BOARD = {
  league: 'silver' as const,
  week: '2026-11-23',
  endsAt: new Date(Date.now() + 3 * 86_400_000),
  coin: { symbol: 'GIFT', decimals: 9 },
  entries: [
    { rank: 1, name: 'Sara', score: '1200', me: false },
    { rank: 2, name: 'Ali', score: '900', me: false },
  ],
  me: { rank: 12, score: '150.5' },
  around: [
    { rank: 11, name: 'Reza', score: '151', me: false },
    { rank: 12, name: 'Demo', score: '150.5', me: true },
    { rank: 13, name: 'Mina', score: '150', me: false },
  ],
};
const FRIENDS = [
  { id: 'f1', name: 'Friend', score: '20', league: 'bronze' as const, me: false, inviter: false, rank: 1 },
  { id: 'i1', name: 'Inviter', score: '0', league: null, me: false, inviter: true, rank: 2 },
];
const handlers = { ...signedInPlayer, 'leagues.current': () => BOARD, 'leagues.friends': () => FRIENDS };

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

it("shows the player's league, rank, earnings, the top, the players around and the friends", async () => {
  renderApp('/leagues', handlers);
  const head = await screen.findByRole('group', { name: 'Leagues' });
  expect(head).toHaveTextContent('Silver league');
  expect(head).toHaveTextContent('Rank 12 this week');
  expect(head).toHaveTextContent('Earned this week: 150.5 GIFT');
  const around = screen.getByRole('heading', { name: 'Players around you' }).nextElementSibling as HTMLElement;
  expect(
    within(around)
      .getAllByRole('listitem')
      .map((row) => row.textContent),
  ).toEqual(['11Reza151 GIFT', '12You150.5 GIFT', '13Mina150 GIFT']);
  expect(await screen.findByText('Inviter (invited you)')).toBeInTheDocument();
});

it('speaks Persian, with Persian digits', async () => {
  await renderAppInPersian('/leagues', handlers);
  const head = await screen.findByRole('group', { name: 'لیگ‌ها' });
  expect(head).toHaveTextContent('لیگ نقره');
  expect(head).toHaveTextContent('رتبهٔ ۱۲ در این هفته');
  expect(head.textContent).not.toMatch(/[0-9]/);
});
