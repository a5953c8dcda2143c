import { cleanup, screen, within } from '@testing-library/react';
import { HOME, renderApp, signedInPlayer, renderAppInPersian } from '../../../test/renderApp';
import { initI18n, setLanguage } from '../../lib/i18n';

const CHECK_IN = {
  ...HOME.starMissions[0]!,
  id: '65f0000000000000000000d1',
  title: 'Daily check-in',
  reward: '20',
  mustDone: false,
  repeat: 'daily' as const,
};

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

it("shows today's daily missions and the streak with its next milestone on Home", async () => {
  renderApp('/', {
    ...signedInPlayer,
    'home.get': () => ({
      ...HOME,
      daily: [CHECK_IN],
      streak: { days: 2, doneToday: false, next: { days: 3, amount: '100', symbol: 'GIFT' } },
    }),
  });
  const today = within(await screen.findByRole('group', { name: 'Today' }));
  expect(today.getByText('🔥 2-day streak')).toBeInTheDocument();
  expect(today.getByText('Do a daily mission today to keep it going.')).toBeInTheDocument();
  expect(today.getByText('At 3 days: +100 GIFT')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: /Daily check-in.*\+20 GIFT.*Not Done/ })).toHaveAttribute('href', `/tasks/${CHECK_IN.id}`);
});

it('says in Persian that today counts, and shows nothing of it without daily missions or a streak', async () => {
  await renderAppInPersian('/', {
    ...signedInPlayer,
    'home.get': () => ({
      ...HOME,
      daily: [{ ...CHECK_IN, title: 'حضور روزانه', status: 'done' as const }],
      streak: { days: 4, doneToday: true, next: null },
    }),
  });
  const today = within(await screen.findByRole('group', { name: 'امروز' }));
  expect(today.getByText('🔥 ۴ روز پیاپی')).toBeInTheDocument();
  expect(today.getByText('امروز حساب شد: فردا برگردید تا ادامه پیدا کند.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: /حضور روزانه/ })).toHaveTextContent('انجام شد');
  cleanup();

  await setLanguage('en');
  renderApp('/', signedInPlayer);
  expect(await screen.findByText('Categories')).toBeInTheDocument();
  expect(screen.queryByRole('group', { name: 'Today' })).not.toBeInTheDocument();
});
