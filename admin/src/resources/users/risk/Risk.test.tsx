import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../../../test/renderScreen';

const signal = (name: string, points: number, evidence: Record<string, number>) => ({ signal: name, strength: 1, points, evidence });

const FARMER = {
  id: 'u1',
  telegramId: 1001,
  name: 'Farm Leader',
  username: 'farm',
  status: 'active',
  risk: {
    score: 104,
    level: 'high',
    signals: [signal('friendBurst', 40, { perMinute: 12, friends: 15 }), signal('sharedWallet', 35, { players: 4 })],
    assessedAt: '2026-03-01T10:00:00.000Z',
  },
  walletAddresses: [],
  createdAt: '2026-02-01T10:00:00.000Z',
};
const REVIEWED = {
  ...FARMER,
  id: 'u2',
  telegramId: 1002,
  name: 'Quick Clicker',
  username: 'quick',
  status: 'frozen',
  risk: { ...FARMER.risk, score: 35, level: 'review', signals: [signal('fastClaims', 35, { fast: 9, claims: 10 })] },
};
const PLAYERS = [FARMER, REVIEWED];

/** The level a list asks for: the server reads `{"risk":{"level":…}}` as its declared filter `risk.level`, and that one as it is. */
function levelOf(request: SentRequest) {
  const filter = JSON.parse(request.query.get('filter') ?? '{}') as { risk?: { level?: string }; 'risk.level'?: string };
  return filter.risk?.level ?? filter['risk.level'];
}

const routes = {
  'GET /users': (request: SentRequest) => PLAYERS.filter((player) => [player.risk.level, undefined].includes(levelOf(request))),
  'GET /users/u2': REVIEWED,
  'POST /risk/u2/clear': { score: 35, level: 'review', released: 2 },
};

describe('the Risk list', () => {
  it('lists the high-risk players by score, with their signals in words', async () => {
    const { sent } = renderScreen('/admin/risk', { routes });
    const row = (await screen.findByText('Farm Leader')).closest('tr')!;
    expect(within(row).getByText('104 · High')).toBeInTheDocument();
    expect(within(row).getByText('12 friends in a minute · shared wallet')).toBeInTheDocument();
    expect(screen.queryByText('Quick Clicker')).not.toBeInTheDocument();
    const [list] = sent('GET /users');
    expect(JSON.parse(list!.query.get('filter')!)).toEqual({ risk: { level: 'high' } });
    expect(JSON.parse(list!.query.get('sort')!)).toEqual(['risk.score', 'DESC']);
  });

  it('asks the server for the level chosen: filter={"risk":{"level":"review"}}', async () => {
    const { sent, user } = renderScreen('/admin/risk', { routes });
    await screen.findByText('Farm Leader');
    await user.click(screen.getByRole('combobox', { name: 'Risk level' }));
    await user.click(await screen.findByRole('option', { name: 'Review' }));
    const row = (await screen.findByText('Quick Clicker')).closest('tr')!;
    expect(within(row).getByText('35 · Review')).toBeInTheDocument();
    expect(within(row).getByText('Frozen')).toBeInTheDocument();
    expect(screen.queryByText('Farm Leader')).not.toBeInTheDocument();
    expect(JSON.parse(sent('GET /users').at(-1)!.query.get('filter')!)).toEqual({ risk: { level: 'review' } });
  });

  it('lists every level once the level is cleared', async () => {
    const { sent, user } = renderScreen('/admin/risk', { routes });
    await screen.findByText('Farm Leader');
    await user.click(screen.getByRole('combobox', { name: 'Risk level' }));
    await user.click(within(await screen.findByRole('listbox')).getAllByRole('option')[0]!);
    expect(await screen.findByText('Quick Clicker')).toBeInTheDocument();
    expect(screen.getByText('Farm Leader')).toBeInTheDocument();
    expect(JSON.parse(sent('GET /users').at(-1)!.query.get('filter')!)).toEqual({});
  });

  it('speaks Persian: the level and the signals', async () => {
    renderScreen('/admin/risk', { routes, locale: 'fa' });
    const row = (await screen.findByText('Farm Leader')).closest('tr')!;
    expect(within(row).getByText('۱۰۴، زیاد')).toBeInTheDocument();
    expect(within(row).getByText('12 دوست در یک دقیقه، کیف‌پول مشترک')).toBeInTheDocument();
  });
});

describe("clearing a player's risk", () => {
  it('clears after a confirmation naming the score: POST /risk/u2/clear, and says how many rewards were paid', async () => {
    const { sent, user } = renderScreen('/admin/users/u2/show/risk', { routes });
    await user.click(await screen.findByRole('button', { name: 'Clear: pay their rewards' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Cleared at score 35, what waited is paid now/)).toBeInTheDocument();
    expect(sent('POST /risk/u2/clear')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Cleared at score 35: 2 waiting rewards paid')).toBeInTheDocument();
    expect(sent('POST /risk/u2/clear')).toHaveLength(1);
  });

  it('is not offered to an operator who only reads players', async () => {
    const { sent } = renderScreen('/admin/users/u2/show/risk', { routes, permissions: ['users:read'] });
    expect(await screen.findByText('9 of their last 10 claims came less than 3 seconds after Go')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear: pay their rewards' })).not.toBeInTheDocument();
    await waitFor(() => expect(sent('GET /users/u2')).not.toHaveLength(0));
    expect(sent('POST /risk/u2/clear')).toHaveLength(0);
  });
});
