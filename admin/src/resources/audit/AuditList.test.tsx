import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../../test/renderScreen';

const OPERATOR_ID = '6b0885a1c2d3e4f5a6b7c8d9';
const PLAYER_ID = '6b0885a1c2d3e4f5a6b7c8e0';

/** An approval of a withdrawal, and a Persian title corrected, as the server lists them (with the names it resolved). */
const ENTRIES = [
  {
    id: 'e1',
    account: OPERATOR_ID,
    username: 'maria',
    action: 'review',
    resource: 'withdraws',
    record: 'w00000000000000000000001',
    before: { status: 'pending', approvedBy: null, approvedAt: null, user: PLAYER_ID },
    after: { status: 'approved', approvedBy: OPERATOR_ID, approvedAt: '2026-03-01T10:00:00.000Z', user: PLAYER_ID },
    names: { [OPERATOR_ID]: 'maria', [PLAYER_ID]: 'Sara (@sara)' },
    note: '',
    createdAt: '2026-03-01T10:00:00.000Z',
  },
  {
    id: 'e2',
    account: OPERATOR_ID,
    username: 'maria',
    action: 'update',
    resource: 'missions',
    record: 'm00000000000000000000001',
    before: { fa: { title: 'عضویت', description: 'همان' }, enabled: true },
    after: { fa: { title: 'عضویت در کانال', description: 'همان' }, enabled: false },
    names: { m00000000000000000000001: 'Join the channel' },
    note: '',
    createdAt: '2026-03-02T10:00:00.000Z',
  },
];

const changesOf = async (text: string) => within((await screen.findByText(text)).closest('tr')!).getByTestId('audit-changes');

describe('the audit log', () => {
  it('names operators and records, and says what changed in words', async () => {
    renderScreen('/admin/audit', { routes: { 'GET /audit': ENTRIES } });
    const approval = await changesOf('00000001');
    expect(approval).toHaveTextContent('Status: Pending → Approved');
    expect(approval).toHaveTextContent('Approved by: — → maria');
    // a date changed is a date, not an ISO string; the player, who did not change, is not listed
    expect(approval).not.toHaveTextContent('2026-03-01T');
    expect(approval).not.toHaveTextContent('Player');
    const edit = await changesOf('Join the channel');
    // of the Persian texts, only the one that changed
    expect(edit).toHaveTextContent('Title in Persian: عضویت → عضویت در کانال');
    expect(edit).not.toHaveTextContent('Description');
    expect(edit).toHaveTextContent('Enabled: Yes → No');
    expect(screen.queryByText(/6b0885/)).not.toBeInTheDocument();
  });

  it('reads in Persian: labels, words, Solar Hijri dates and Persian digits', async () => {
    renderScreen('/admin/audit', { routes: { 'GET /audit': ENTRIES }, locale: 'fa' });
    const approval = await changesOf('00000001');
    expect(approval).toHaveTextContent('وضعیت: در انتظار → تأییدشده');
    expect(approval).toHaveTextContent('تأییدکننده: — → maria');
    expect(approval).toHaveTextContent(/زمان تأیید: — → ۱۰ اسفند ۱۴۰۴، /);
    expect(await changesOf('Join the channel')).toHaveTextContent('فعال: بله → خیر');
    const row = screen.getByText('00000001').closest('tr')!;
    expect(within(row).getByText('بررسی')).toBeInTheDocument();
    expect(within(row).getByText('برداشت')).toBeInTheDocument();
    expect(row).toHaveTextContent(/۱۰ اسفند ۱۴۰۴، /);
  });
});
