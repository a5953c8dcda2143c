import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../../test/renderScreen';

const DRAFT = {
  id: 'b1',
  text: 'New <b>missions</b> are out',
  fa: { text: 'ماموریت‌های تازه آمد' },
  imageUrl: '',
  button: null,
  segment: { language: 'fa' },
  status: 'draft',
  audience: 0,
  sent: 0,
  failed: 0,
  blocked: 0,
  unknown: 0,
  remaining: 0,
  rate: 25,
  expectedFinish: null,
  scheduledAt: null,
  finishedAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
};
/** Sent to 1,000 players: 2 failed, 1 blocked the bot, 3 were in flight when a sender stopped. */
const DONE = {
  ...DRAFT,
  id: 'b2',
  status: 'done',
  audience: 1000,
  sent: 994,
  failed: 2,
  blocked: 1,
  unknown: 3,
  finishedAt: '2026-03-01T11:00:00.000Z',
};
const FAILURES = [
  { id: 'r1', user: 'u1', telegramId: 5001, status: 'failed', outcome: 'Bad Request: chat not found', attempts: 3 },
  { id: 'r2', user: 'u2', telegramId: 5002, status: 'blocked', outcome: 'Forbidden: bot was blocked by the user', attempts: 1 },
  { id: 'r3', user: 'u3', telegramId: 5003, status: 'unknown', outcome: 'The sender stopped mid-send', attempts: 1 },
];

/** Players who allow messages, by language: what POST /broadcasts/count answers for a segment. */
const countOf = ({ body }: SentRequest) => {
  const { segment } = body as { segment: { language?: string } };
  return { count: segment.language === 'fa' ? 412 : 1234 };
};

const routes = {
  'GET /broadcasts/b1': DRAFT,
  'GET /broadcasts/b2': DONE,
  'GET /broadcasts/b2/failures': FAILURES,
  'POST /broadcasts/count': countOf,
  'POST /broadcasts/b1/test': { languages: ['en', 'fa'] },
  'PUT /broadcasts/b1': { ...DRAFT, status: 'sending', audience: 412 },
  'POST /broadcasts/b2/resend-unknown': { ...DONE, status: 'sending', unknown: 0, requeued: 3 },
};

it("counts the players a new broadcast's segment reaches, again when the segment changes", async () => {
  const { sent, user } = renderScreen('/admin/broadcasts/create', { routes });
  expect(await screen.findByText('This reaches 1,234 players who allow messages')).toBeInTheDocument();
  expect(sent('POST /broadcasts/count')[0]!.body).toEqual({ segment: {} });

  await user.click(screen.getByRole('combobox', { name: 'Language' }));
  await user.click(await screen.findByRole('option', { name: 'فارسی' }));
  expect(await screen.findByText('This reaches 412 players who allow messages')).toBeInTheDocument();
  expect(sent('POST /broadcasts/count').at(-1)!.body).toEqual({ segment: { language: 'fa' } });
});

it("writes the segment's days in Persian digits in the Persian console, and counts them as a number of days", async () => {
  const { sent, user } = renderScreen('/admin/broadcasts/create', { routes, locale: 'fa' });
  const active = await screen.findByLabelText('فعال در … روز گذشته');
  await user.type(active, '14');
  expect(active).toHaveValue('۱۴');
  await waitFor(() => expect(sent('POST /broadcasts/count').at(-1)!.body).toEqual({ segment: { activeWithinDays: 14 } }));
});

it("sends a draft as a test to the operator's own Telegram: POST /broadcasts/b1/test", async () => {
  const { sent, user } = renderScreen('/admin/broadcasts/b1/show', { routes });
  await user.click(await screen.findByRole('button', { name: 'Send a test to me' }));
  expect(await screen.findByText('Test sent to your Telegram (English, فارسی)')).toBeInTheDocument();
  expect(sent('POST /broadcasts/b1/test')).toHaveLength(1);
  // a test is no start
  expect(sent('PUT /broadcasts/b1')).toHaveLength(0);
});

it('starts a draft after a confirmation naming how many players it reaches now: PUT /broadcasts/b1 { status: "sending" }', async () => {
  const { sent, user } = renderScreen('/admin/broadcasts/b1/show', { routes });
  await user.click(await screen.findByRole('button', { name: 'Start sending' }));
  const dialog = await screen.findByRole('dialog');
  expect(await within(dialog).findByText('Send this to 412 players now?')).toBeInTheDocument();
  expect(sent('POST /broadcasts/count').at(-1)!.body).toEqual({ segment: { language: 'fa' } });
  expect(sent('PUT /broadcasts/b1')).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(sent('PUT /broadcasts/b1')).toHaveLength(1));
  expect(sent('PUT /broadcasts/b1')[0]!.body).toEqual({ status: 'sending' });
});

it('lists the players a finished broadcast did not reach, with Telegram’s reason', async () => {
  renderScreen('/admin/broadcasts/b2/show', { routes });
  expect(await screen.findByText('Not reached')).toBeInTheDocument();
  const rows = screen.getAllByRole('row').slice(1);
  expect(rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))).toEqual([
    ['5001', 'Failed', 'Bad Request: chat not found'],
    ['5002', 'Blocked the bot', 'Forbidden: bot was blocked by the user'],
    ['5003', 'Outcome unknown', 'The sender stopped mid-send'],
  ]);
  const figure = (name: string) => document.querySelector(`[data-figure="${name}"]`)!.textContent;
  expect([figure('sent'), figure('failed'), figure('blocked'), figure('unknown')]).toEqual(['Sent994', 'Failed2', 'Blocked1', 'Unknown3']);
});

it('resends to the unknown ones only after a confirmation that says they may get it twice', async () => {
  const { sent, user } = renderScreen('/admin/broadcasts/b2/show', { routes });
  await user.click(await screen.findByRole('button', { name: 'Resend to the unknown (3)' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(/^Send this again to the 3 players whose outcome is unknown\?.*will get it twice/)).toBeInTheDocument();
  expect(sent('POST /broadcasts/b2/resend-unknown')).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Resending to 3 players')).toBeInTheDocument();
  expect(sent('POST /broadcasts/b2/resend-unknown')).toHaveLength(1);
  expect(sent('POST /broadcasts/b2/resend-unknown')[0]!.body).toEqual({});
});

it('speaks Persian: the figures in Persian digits, the failures under their Persian heading', async () => {
  renderScreen('/admin/broadcasts/b2/show', { routes, locale: 'fa' });
  expect(await screen.findByText('نرسیده')).toBeInTheDocument();
  expect(document.querySelector('[data-figure="sent"]')).toHaveTextContent('۹۹۴');
  expect(screen.getByText('5002').closest('tr')).toHaveTextContent('ربات را مسدود کرده');
});
