import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../test/renderScreen';
import { fromSolarHijri, toSolarHijri } from './ConsoleDateInput';

it('converts both ways: 1405/09/06 is 27 November 2026, in Persian, Arabic or Latin digits, and refuses a day that is not', () => {
  expect(toSolarHijri('2026-11-27')).toBe('۱۴۰۵/۰۹/۰۶');
  expect(toSolarHijri('2026-03-21T08:05')).toBe('۱۴۰۵/۰۱/۰۱ ۰۸:۰۵');
  expect(fromSolarHijri('۱۴۰۵/۰۹/۰۶')).toBe('2026-11-27');
  expect(fromSolarHijri('1405-9-6')).toBe('2026-11-27');
  expect(fromSolarHijri('١٤٠٥/٠٩/٠٦')).toBe('2026-11-27');
  expect(fromSolarHijri('۱۴۰۵/۰۹/۰۶ ۱۴:۳۰', true)).toBe('2026-11-27T14:30');
  expect(fromSolarHijri('۱۴۰۵/۰۹/۰۶', true)).toBe('2026-11-27T00:00');
  // 1405 is no leap year: Esfand has 29 days; a time where only a day is asked, a 25th hour: none is a date
  for (const wrong of ['۱۴۰۵/۱۲/۳۰', '۱۴۰۵/۱۳/۰۱', '۱۴۰۵/۰۹/۰۶ ۱۰:۰۰', '۱۴۰۵/۰۹', 'tomorrow']) expect(fromSolarHijri(wrong)).toBeNull();
  expect(fromSolarHijri('۱۴۰۵/۰۹/۰۶ ۲۴:۰۰', true)).toBeNull();
  expect(fromSolarHijri('۱۴۰۳/۱۲/۳۰')).toBe('2025-03-20');
});

/** A draft as its edit form reads it: the texts, the segment with a join date and the send time. */
const DRAFT = {
  id: 'b1',
  text: 'Payout round',
  button: null,
  status: 'draft',
  segment: { joinedFrom: '2026-11-01' },
  scheduledAt: '2026-11-27T14:30',
};
const broadcastRoutes = {
  'GET /broadcasts/b1': DRAFT,
  'POST /broadcasts/count': { count: 7 },
  'PUT /broadcasts/b1': ({ body }: SentRequest) => ({ ...DRAFT, ...(body as object) }),
};

it('in Persian, a form shows and takes Solar Hijri dates and sends the Gregorian ones English would', async () => {
  const { sent, user } = renderScreen('/admin/broadcasts/b1', { routes: broadcastRoutes, locale: 'fa' });
  const joinedFrom = await screen.findByLabelText('پیوسته از');
  expect(joinedFrom).toHaveValue('۱۴۰۵/۰۸/۱۰');
  const sendAt = screen.getByLabelText('ارسال در');
  expect(sendAt).toHaveValue('۱۴۰۵/۰۹/۰۶ ۱۴:۳۰');

  await user.clear(joinedFrom);
  await user.type(joinedFrom, '۱۴۰۵/۰۹/۰۶');
  // the count reads the segment through its schema, as in English: the day's start in UTC
  await waitFor(() =>
    expect((sent('POST /broadcasts/count').at(-1)!.body as { segment: object }).segment).toEqual({
      joinedFrom: '2026-11-27T00:00:00.000Z',
    }),
  );
  await user.clear(sendAt);
  await user.type(sendAt, '1405/09/07 09:15');
  // half a date is said to be unreadable, and keeps the last one read
  await user.clear(joinedFrom);
  await user.type(joinedFrom, '۱۴۰۵/۱۲/۳۰');
  expect(screen.getByText('تاریخ را مانند ۱۴۰۵/۰۹/۰۶ بنویسید')).toBeInTheDocument();
  await user.clear(joinedFrom);
  await user.type(joinedFrom, '۱۴۰۵/۰۹/۰۶');
  await user.click(screen.getByRole('button', { name: 'ذخیره' }));
  await waitFor(() => expect(sent('PUT /broadcasts/b1')).toHaveLength(1));
  const body = sent('PUT /broadcasts/b1')[0]!.body as { segment: { joinedFrom: string }; scheduledAt: string };
  expect(body.segment.joinedFrom).toBe('2026-11-27');
  expect(new Date(body.scheduledAt).getTime()).toBe(new Date('2026-11-28T09:15').getTime());
});

it('in English, the same form keeps the Gregorian inputs', async () => {
  renderScreen('/admin/broadcasts/b1', { routes: broadcastRoutes });
  expect(await screen.findByLabelText('Joined from')).toHaveValue('2026-11-01');
  expect(screen.getByLabelText('Joined from')).toHaveAttribute('type', 'date');
  expect(screen.getByLabelText('Send at')).toHaveAttribute('type', 'datetime-local');
});

/** The dashboard's answer for a range: only what the period panel reads. */
const dashboard = ({ query }: SentRequest) => {
  const range = { from: query.get('from') ?? '2026-10-29', to: query.get('to') ?? '2026-11-27' };
  const period = { newPlayers: 1, claims: 1, withdrawals: 0, coinsIssued: [] };
  return {
    asOf: '2026-11-27T10:15:00.000Z',
    range,
    players: 1,
    newToday: 0,
    activeToday: 0,
    missionsDoneToday: 0,
    reviewsWaiting: 0,
    giftsWaiting: null,
    grantsWaiting: null,
    pendingWithdrawals: { count: 0, byCoin: [] },
    coinsIssued: [],
    miningRunning: 0,
    stakedLocked: [],
    chart: [],
    period,
    previousPeriod: { ...period, from: '2026-09-29', to: '2026-10-28' },
  };
};

it("in Persian, the dashboard's range reads and takes Solar Hijri days", async () => {
  const { sent } = renderScreen('/admin/?from=2026-11-01&to=2026-11-27', { routes: { 'GET /dashboard': dashboard }, locale: 'fa' });
  const period = await screen.findByTestId('dashboard-period');
  const from = within(period).getByLabelText('از');
  await waitFor(() => expect(from).toHaveValue('۱۴۰۵/۰۸/۱۰'));
  expect(within(period).getByLabelText('تا')).toHaveValue('۱۴۰۵/۰۹/۰۶');
  fireEvent.change(from, { target: { value: '۱۴۰۵/۰۸/۲۰' } });
  await waitFor(() => expect(sent('GET /dashboard').at(-1)!.query.get('from')).toBe('2026-11-11'));
  expect(sent('GET /dashboard').at(-1)!.query.get('to')).toBe('2026-11-27');
});
