import { screen, waitFor, within } from '@testing-library/react';
import { rejectWithReason, renderScreen, type SentRequest } from '../../../test/renderScreen';

const GIFT = { id: '65f0000000000000000000c0', symbol: 'GIFT', name: 'Gift Coin' };
const ASKER = { id: '65f0000000000000000000a9', username: 'prize-setter' };
const prize = (fromRank: number, toRank: number, amount: string) => ({ league: 'bronze', fromRank, toRank, coin: GIFT.id, amount });
const WEEK = {
  id: '65f0000000000000000000e1',
  week: '2026-11-23',
  state: 'open',
  prizes: [prize(1, 1, '40'), prize(2, 3, '12.5')],
  waitingChange: {
    id: '65f0000000000000000000d1',
    requestedBy: ASKER.id,
    requestedAt: '2026-11-27T10:40:00.000Z',
    set: { prizes: [prize(1, 1, '6000'), prize(2, 3, '12.5')] },
  },
};

/** The prize table's page as the console opens it (the week being played is 'current'), saving whatever is sent back. */
function openPrizes(locale: 'en' | 'fa') {
  return renderScreen('/admin/league-weeks/current', {
    locale,
    routes: {
      'GET /league-weeks/current': WEEK,
      'GET /gift-coins': [GIFT],
      [`GET /gift-coins/${GIFT.id}`]: GIFT,
      [`GET /accounts/${ASKER.id}`]: ASKER,
      'PUT /league-weeks/current': (request: SentRequest) => ({ ...WEEK, ...(request.body as object) }),
    },
  });
}

it('titles the prize page in English and offers Save but no Delete (a week stays on record) and no list', async () => {
  openPrizes('en');
  await screen.findByTestId('change-waiting-banner');
  await waitFor(() => expect(document.querySelector('#react-admin-title')).toHaveTextContent(/^League prizes$/));
  expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  expect(screen.queryByRole('link', { name: 'List' })).not.toBeInTheDocument();
  expect(screen.getByLabelText('Amount each', { selector: '[name="prizes.1.amount"]' })).toHaveValue('12.5');
});

it('writes the Persian page, its waiting change and its inputs in Persian digits, and saves what is typed as ASCII', async () => {
  const { sent, user } = openPrizes('fa');
  const banner = await screen.findByTestId('change-waiting-banner');
  await waitFor(() => expect(document.querySelector('#react-admin-title')).toHaveTextContent(/^جایزه‌های لیگ$/));
  expect(screen.queryByRole('button', { name: 'حذف' })).not.toBeInTheDocument();
  // the change as the second operator reads it: ranks and amounts in Persian digits, the decimal separator too
  await within(banner).findByText(/prize-setter/);
  expect(banner.textContent).toContain('برنز ۱–۱: ۶۰۰۰؛ برنز ۲–۳: ۱۲٫۵، prize-setter، ');
  expect(banner.textContent).not.toMatch(/[0-9]/);
  // the week's Monday, in the Solar Hijri calendar
  expect(screen.getByText('۱۴۰۵/۹/۲')).toBeInTheDocument();

  const amount = document.querySelector<HTMLInputElement>('input[name="prizes.0.amount"]')!;
  const from = document.querySelector<HTMLInputElement>('input[name="prizes.1.fromRank"]')!;
  expect([amount.value, from.value, document.querySelector<HTMLInputElement>('input[name="prizes.1.amount"]')!.value]).toEqual([
    '۴۰',
    '۲',
    '۱۲٫۵',
  ]);
  // typed on a Latin keyboard or a Persian one, the field shows Persian digits and keeps ASCII ones
  await user.clear(amount);
  await user.type(amount, '75.5');
  expect(amount).toHaveValue('۷۵٫۵');
  await user.clear(from);
  await user.type(from, '۳');
  expect(from).toHaveValue('۳');
  await user.click(screen.getByRole('button', { name: 'ذخیره' }));
  await waitFor(() => expect(sent('PUT /league-weeks/current')).toHaveLength(1));
  const body = sent('PUT /league-weeks/current')[0]!.body as { prizes: Array<{ fromRank: unknown; amount: string }> };
  expect(body.prizes.map((p) => [String(p.fromRank), p.amount])).toEqual([
    ['1', '75.5'],
    ['3', '12.5'],
  ]);
});

it('opens a week by its own id, as the dashboard links a change still waiting when its week ended, and turns it down there', async () => {
  const over = { ...WEEK, state: 'closed' };
  const { sent, user } = renderScreen(`/admin/league-weeks/${WEEK.id}`, {
    routes: {
      [`GET /league-weeks/${WEEK.id}`]: over,
      'GET /gift-coins': [GIFT],
      [`GET /gift-coins/${GIFT.id}`]: GIFT,
      [`GET /accounts/${ASKER.id}`]: ASKER,
      [`POST /league-weeks/${WEEK.id}/change/reject`]: { ...over, waitingChange: null },
    },
  });
  const banner = await screen.findByTestId('change-waiting-banner');
  expect(sent('GET /league-weeks/current')).toHaveLength(0);
  await rejectWithReason(user, banner, 'the week is over');
  await waitFor(() => expect(sent(`POST /league-weeks/${WEEK.id}/change/reject`)).toHaveLength(1));
  expect(sent(`POST /league-weeks/${WEEK.id}/change/reject`)[0]!.body).toEqual({
    id: WEEK.waitingChange.id,
    rejectReason: 'the week is over',
  });
});
