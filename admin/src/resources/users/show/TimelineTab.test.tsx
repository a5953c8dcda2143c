import { screen, waitFor, within } from '@testing-library/react';
import type { TimelineEntry } from '@gift/server';
import { renderScreen, type SentRequest } from '../../../../test/renderScreen';

const PLAYER = { id: 'u1', telegramId: 1001, name: 'Ann Player', username: 'ann', status: 'active', walletAddresses: [], coins: [] };

const entry = (event: string, kind: TimelineEntry['kind'], fields: Partial<TimelineEntry> = {}): TimelineEntry => ({
  id: `${event}:${fields.at ?? '1'}`,
  at: '2026-03-01T10:00:00.000Z',
  kind,
  event,
  cursor: `c-${event}`,
  link: null,
  ...fields,
});

const FIRST_PAGE = [
  entry('note', 'note', { text: 'Called support', author: 'maria' }),
  entry('withdrawal.done', 'withdrawal', { amount: '1645.5', symbol: 'GIFT', link: { resource: 'withdraws', id: 'w1' } }),
];
const SECOND_PAGE = [entry('mission.claimed', 'mission', { title: 'Follow us', amount: '2.5', symbol: 'GIFT' })];

/** The server's timeline: two pages of everything, or the ledger alone. */
function timeline(request: SentRequest) {
  if (request.query.get('kind') === 'ledger')
    return { entries: [entry('ledger', 'ledger', { amount: '-3', symbol: 'GIFT', ledgerReason: 'clawback' })], next: null };
  return request.query.get('before') === 'c-withdrawal.done'
    ? { entries: SECOND_PAGE, next: null }
    : { entries: FIRST_PAGE, next: 'c-withdrawal.done' };
}

const routes = {
  'GET /users/u1': PLAYER,
  'GET /timeline/u1': timeline,
  'POST /timeline/u1/notes': (request: SentRequest) =>
    entry('note', 'note', { id: 'note:new', text: (request.body as { text: string }).text.trim(), author: 'maria' }),
};

const lines = () => within(screen.getByRole('list', { name: 'Timeline' })).getAllByRole('listitem');

describe('the Timeline tab', () => {
  it('shows the newest first, loads more from the cursor, and keeps one kind', async () => {
    const { sent, user } = renderScreen('/admin/users/u1/show/timeline', { routes });
    expect(await screen.findByText('Withdrawal of 1645.5 GIFT paid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Withdrawal of 1645.5 GIFT paid' })).toHaveAttribute('href', '/admin/withdraws/w1');
    expect(lines()[0]).toHaveTextContent('Called supportby maria');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Claimed “Follow us” (2.5 GIFT)')).toBeInTheDocument();
    expect(lines().map((line) => line.dataset.kind)).toEqual(['note', 'withdrawal', 'mission']);
    expect(sent('GET /timeline/u1').at(-1)!.query.get('before')).toBe('c-withdrawal.done');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Ledger' }));
    expect(await screen.findByText('-3 GIFT · taken back')).toBeInTheDocument();
    expect(lines()).toHaveLength(1);
    expect(sent('GET /timeline/u1').at(-1)!.query.get('kind')).toBe('ledger');
  });

  it('adds a note that then heads the timeline, and refuses a blank one before asking the server', async () => {
    const { sent, user } = renderScreen('/admin/users/u1/show/timeline', { routes });
    await screen.findByText('Called support');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Write the note')).toBeInTheDocument();
    expect(sent('POST /timeline/u1/notes')).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Internal note' }), '  Asked for ID  ');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Asked for ID')).toBeInTheDocument();
    expect(sent('POST /timeline/u1/notes')[0]!.body).toEqual({ text: 'Asked for ID' });
    expect(lines()[0]).toHaveTextContent('Asked for IDby maria');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Internal note' })).toHaveValue(''));
  });

  it('offers no note form to an operator who only reads players', async () => {
    renderScreen('/admin/users/u1/show/timeline', { routes, permissions: ['users:read'] });
    expect(await screen.findByText('Called support')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add note' })).not.toBeInTheDocument();
  });

  it('speaks Persian, with Persian digits', async () => {
    renderScreen('/admin/users/u1/show/timeline', { routes, locale: 'fa' });
    expect(await screen.findByText('برداشت ۱۶۴۵٫۵ GIFT پرداخت شد')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'بیشتر' })).toBeInTheDocument();
  });
});
