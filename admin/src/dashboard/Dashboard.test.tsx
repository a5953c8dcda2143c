import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../test/renderScreen';
import { withinLimits } from './PeriodPanel';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayKey = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/** What the server answers for a range: two coins' worth of figures, the period before half as busy. */
function figures(request: SentRequest) {
  const to = request.query.get('to') ?? dayKey(0);
  const from = request.query.get('from') ?? dayKey(29);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
  return {
    asOf: '2026-03-01T10:15:00.000Z',
    range: { from, to },
    players: 120,
    newToday: 3,
    activeToday: 40,
    missionsDoneToday: 12,
    reviewsWaiting: 2,
    giftsWaiting: null,
    grantsWaiting: null,
    changesWaiting: null,
    pendingWithdrawals: { count: 0, byCoin: [] },
    coinsIssued: [],
    miningRunning: 5,
    stakedLocked: [],
    chart: Array.from({ length: days }, (_, i) => ({ date: dayKey(days - 1 - i), newPlayers: 1, claims: 2, withdrawals: 0 })),
    period: { newPlayers: days, claims: 2 * days, withdrawals: 0, coinsIssued: [{ coin: 'c1', symbol: 'GIFT', amount: '150.5' }] },
    previousPeriod: {
      from: dayKey(2 * days - 1),
      to: dayKey(days),
      newPlayers: Math.floor(days / 2),
      claims: 2 * days,
      withdrawals: 0,
      coinsIssued: [{ coin: 'c1', symbol: 'GIFT', amount: '200' }],
    },
  };
}

it('shows the period against the one before, when the figures were counted, and asks for the range an operator picks', async () => {
  const { sent, user } = renderScreen('/admin/', { routes: { 'GET /dashboard': figures } });
  const period = await screen.findByTestId('dashboard-period');
  expect(within(period).getByTestId('period-newPlayers')).toHaveTextContent('New players30▲ 100% on the period before');
  expect(within(period).getByTestId('period-claims')).toHaveTextContent('60as in the period before');
  expect(within(period).getByTestId('period-withdrawals')).toHaveTextContent('0as in the period before');
  expect(within(period).getByTestId('period-issued-GIFT')).toHaveTextContent('Coins issued (GIFT)150.5▼ 24% on the period before');
  expect(within(period).getByTestId('dashboard-as-of')).toHaveTextContent(`As of ${new Date('2026-03-01T10:15:00.000Z').toLocaleString()}`);
  // the default range asks for none: the server's 30 days ending today
  expect(sent('GET /dashboard')[0]!.query.has('from')).toBe(false);

  await user.click(within(period).getByRole('button', { name: 'Last 7 days' }));
  await waitFor(() => expect(sent('GET /dashboard').at(-1)!.query.get('from')).toBe(dayKey(6)));
  expect(sent('GET /dashboard').at(-1)!.query.get('to')).toBe(dayKey(0));
  await waitFor(() => expect(screen.getByTestId('period-newPlayers')).toHaveTextContent('New players7'));
  expect(window.location.search).toBe(`?from=${dayKey(6)}&to=${dayKey(0)}`);
  expect(screen.getByRole('button', { name: 'Last 7 days' })).toHaveClass('MuiButton-contained');
});

it('writes the period in Persian, with Persian digits', async () => {
  renderScreen('/admin/', { routes: { 'GET /dashboard': figures }, locale: 'fa' });
  const period = await screen.findByTestId('dashboard-period');
  expect(within(period).getByTestId('period-newPlayers')).toHaveTextContent('بازیکنان جدید۳۰▲ ۱۰۰٪ نسبت به بازهٔ پیش');
  expect(within(period).getByRole('button', { name: '۷ روز گذشته' })).toBeInTheDocument();
  // when the figures were counted (1 March 2026 is 10 Esfand 1404), its date and time joined by a Persian comma, not a Latin one
  const asOf = within(period).getByTestId('dashboard-as-of');
  expect(asOf).toHaveTextContent(/۱۰ اسفند ۱۴۰۴، [۰-۹]/);
  expect(asOf.textContent).not.toContain(',');
});

it("writes the cards' figures in Persian digits in Persian, amounts exact, as the period panel writes its own", async () => {
  const busy = (request: SentRequest) => ({
    ...figures(request),
    players: 1200,
    pendingWithdrawals: { count: 2, byCoin: [{ coin: 'c1', symbol: 'GIFT', amount: '10.25', count: 2 }] },
    coinsIssued: [{ coin: 'c1', symbol: 'GIFT', amount: '1234.000001' }],
    changesWaiting: { count: 3, newest: [] },
  });
  renderScreen('/admin/', { routes: { 'GET /dashboard': busy }, locale: 'fa' });
  const players = await screen.findByTestId('figure-dashboard.players');
  await waitFor(() => expect(players).toHaveTextContent('۱٬۲۰۰'));
  expect(screen.getByTestId('figure-dashboard.players-detail')).toHaveTextContent('۴۰ فعال امروز');
  expect(screen.getByTestId('figure-dashboard.changesWaiting')).toHaveTextContent('۳');
  expect(screen.getByTestId('figure-dashboard.pendingWithdraws-detail')).toHaveTextContent('۱۰٫۲۵ GIFT');
  expect(screen.getByTestId('figure-dashboard.coinsIssued')).toHaveTextContent('۱٬۲۳۴٫۰۰۰۰۰۱ GIFT');
  expect(within(screen.getByTestId('dashboard-period')).getByTestId('period-issued-GIFT')).toHaveTextContent('۱۵۰٫۵');
  // no Latin digit left on any card
  for (const card of screen.getAllByTestId(/^figure-dashboard\./)) expect(card.textContent).not.toMatch(/[0-9]/);
});

it('groups the figures in English', async () => {
  renderScreen('/admin/', {
    routes: {
      'GET /dashboard': (request: SentRequest) => ({
        ...figures(request),
        players: 1200,
        coinsIssued: [{ coin: 'c1', symbol: 'GIFT', amount: '1234.5' }],
      }),
    },
  });
  await waitFor(() => expect(screen.getByTestId('figure-dashboard.players')).toHaveTextContent('1,200'));
  expect(screen.getByTestId('figure-dashboard.coinsIssued')).toHaveTextContent('1,234.5 GIFT');
});

it('lands an operator who only decides gifts on the count waiting for them, linked to the gifts', async () => {
  const giftsOnly = (request: SentRequest) => ({
    ...figures(request),
    players: null,
    newToday: null,
    activeToday: null,
    missionsDoneToday: null,
    reviewsWaiting: null,
    pendingWithdrawals: null,
    coinsIssued: null,
    miningRunning: null,
    stakedLocked: null,
    giftsWaiting: 3,
    grantsWaiting: null,
    chart: [],
    period: { newPlayers: null, claims: null, withdrawals: null, coinsIssued: null },
  });
  renderScreen('/admin/', { routes: { 'GET /dashboard': giftsOnly }, permissions: ['gifts:write'] });
  const card = await screen.findByTestId('figure-dashboard.giftsWaiting');
  await waitFor(() => expect(card).toHaveTextContent('3'));
  expect(card.closest('a')).toHaveAttribute('href', '/admin/gifts');
  expect(screen.getByText('Gifts waiting for a second operator')).toBeInTheDocument();
  expect(screen.queryByTestId('figure-dashboard.players')).toBeNull();
  expect(screen.queryByText('Choose a page from the menu.')).toBeNull();
});

it('names the newest brake changes waiting for the operator, each a link to the record where it is decided', async () => {
  const changes = (request: SentRequest) => ({
    ...figures(request),
    changesWaiting: {
      count: 7,
      newest: [
        { id: 'ch1', resource: 'gift-coins', record: 'coin1', name: 'GIFT', by: 'alice', at: '2026-03-01T09:00:00.000Z' },
        { id: 'ch2', resource: 'app-config', record: 'referral', name: 'referral', by: 'bob', at: '2026-02-28T09:00:00.000Z' },
        { id: 'ch3', resource: 'leagues', record: 'week1', name: '2026-W09', by: 'alice', at: '2026-02-27T09:00:00.000Z' },
      ],
    },
  });
  const { user } = renderScreen('/admin/', { routes: { 'GET /dashboard': changes } });
  const card = await screen.findByTestId('figure-dashboard.changesWaiting');
  await waitFor(() => expect(card).toHaveTextContent('7'));
  expect(screen.getByText('Brake changes waiting for a second operator')).toBeInTheDocument();
  const coin = screen.getByTestId('dashboard-change-ch1');
  expect(coin).toHaveTextContent(`Coin's brakes: GIFTAsked by alice, ${new Date('2026-03-01T09:00:00.000Z').toLocaleString()}`);
  expect(coin).toHaveAttribute('href', '/admin/gift-coins/coin1');
  expect(screen.getByTestId('dashboard-change-ch2')).toHaveTextContent('App Config: referral reward');
  expect(screen.getByTestId('dashboard-change-ch2')).toHaveAttribute('href', '/admin/app-config');
  // the week's own page: a week over still holds its change until it is turned down
  expect(screen.getByTestId('dashboard-change-ch3')).toHaveAttribute('href', '/admin/league-weeks/week1');

  // the record's page opens from the list
  await user.click(coin);
  await waitFor(() => expect(window.location.pathname).toBe('/admin/gift-coins/coin1'));
});

it('leaves the card out for an operator who may decide no brake change', async () => {
  renderScreen('/admin/', { routes: { 'GET /dashboard': figures } });
  // while the figures load every card waits; once they come, the server's null leaves this one out
  await waitFor(() => expect(screen.getByTestId('figure-dashboard.players')).toHaveTextContent('120'));
  expect(screen.queryByTestId('figure-dashboard.changesWaiting')).toBeNull();
});

it('keeps a range the operator edits one the server answers: ends never cross, at most 366 days', () => {
  const range = { from: '2026-03-01', to: '2026-03-31' };
  expect(withinLimits(range, 'from', '2026-03-10')).toEqual({ from: '2026-03-10', to: '2026-03-31' });
  expect(withinLimits(range, 'from', '2026-04-05')).toEqual({ from: '2026-04-05', to: '2026-04-05' });
  expect(withinLimits(range, 'to', '2026-02-01')).toEqual({ from: '2026-02-01', to: '2026-02-01' });
  expect(withinLimits(range, 'from', '2024-01-01')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
  expect(withinLimits(range, 'to', '2027-06-30')).toEqual({ from: '2026-06-30', to: '2027-06-30' });
});
