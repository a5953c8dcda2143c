import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, type SentRequest } from '../../../../test/renderScreen';

const LEADER = 'c'.repeat(24);
const RAW = `0:${'ab'.repeat(32)}`;
const FRIENDLY = 'UQCrq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq5jh';
const FARMER = {
  id: 'u1',
  telegramId: 1001,
  name: 'Farm Leader',
  status: 'active',
  risk: {
    score: 104,
    level: 'high',
    signals: [{ signal: 'friendBurst', strength: 1, points: 40, evidence: { perMinute: 15, friends: 15 }, cluster: { referrer: LEADER } }],
    assessedAt: '2026-03-01T10:00:00.000Z',
  },
  walletAddresses: [RAW],
  createdAt: '2026-02-01T10:00:00.000Z',
};
const coins = (amount: string, now: string, owed: string) => [{ symbol: 'GIFT', amount, now, owed }];
const PREVIEW = {
  key: 'f'.repeat(64),
  players: 15,
  ban: 15,
  members: { players: 15, coins: coins('12340', '12000', '340') },
  referrers: { players: 2, coins: coins('1500', '1500', '0') },
};
const routes = {
  'GET /users/u1': FARMER,
  'GET /risk/u1/wallets': { wallets: [{ raw: RAW, address: FRIENDLY }] },
  'POST /risk/clean-up/preview': PREVIEW,
  'POST /risk/clean-up': { ...PREVIEW, status: 'done' },
  // the bulk dialog checks ids with the server's schema
  'GET /users': [
    { ...FARMER, id: 'a'.repeat(24) },
    { ...FARMER, id: 'b'.repeat(24), name: 'Farmhand' },
  ],
  'POST /users/status': (request: SentRequest) => ({ changed: (request.body as { ids: string[] }).ids }),
};

/** The sentence without the marks that keep each amount left to right inside Persian. */
const sentence = async () => (await screen.findByTestId('clean-up-sentence')).textContent.replace(/[\u2066\u2069]/g, '');

async function openCleanUp(user: ReturnType<typeof renderScreen>['user'], name: string) {
  const line = (await screen.findByText(/friends joined within one minute|دوست در یک دقیقه/)).closest('li')!;
  await user.click(await within(line).findByRole('button', { name }));
  return screen.findByRole('dialog');
}

describe("a risk cluster's clean-up", () => {
  it('says what it will do before the operator confirms, then what was done', async () => {
    const { sent, user } = renderScreen('/admin/users/u1/show/risk', { routes });
    const dialog = await openCleanUp(user, 'Ban and take back');
    expect(await sentence()).toBe('Ban 15 players and take back 12,340 GIFT and 1,500 GIFT from 2 referrers.');
    expect(within(dialog).getByText(/Their balances cover .*13,500 GIFT.* now; .*340 GIFT.* stays owed/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/Banned/)).not.toBeInTheDocument();
    expect(sent('POST /risk/clean-up/preview').map((request) => request.body)).toEqual([{ cluster: { referrer: LEADER } }]);
    expect(sent('POST /risk/clean-up')).toHaveLength(0);

    // without a reason the players read, nothing is sent
    await user.click(within(dialog).getByRole('button', { name: 'Ban and take back' }));
    expect(await within(dialog).findByText('Say why: the player reads this reason')).toBeInTheDocument();
    expect(sent('POST /risk/clean-up')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Many accounts joined together through one invite' }));
    await user.click(within(dialog).getByRole('button', { name: 'Ban and take back' }));
    await waitFor(async () =>
      expect(await sentence()).toBe('Banned 15 players and took back 12,340 GIFT and 1,500 GIFT from 2 referrers.'),
    );
    expect(sent('POST /risk/clean-up').map((request) => request.body)).toEqual([
      {
        cluster: { referrer: LEADER },
        key: PREVIEW.key,
        status: 'banned',
        statusReason: 'Many accounts joined together through one invite',
        fa: { statusReason: 'حساب‌های زیادی با یک دعوت با هم وارد شدند' },
      },
    ]);
  });

  it('speaks Persian, with Persian digits', async () => {
    const { user } = renderScreen('/admin/users/u1/show/risk', { routes, locale: 'fa' });
    await openCleanUp(user, 'محروم کردن و پس گرفتن');
    expect(await sentence()).toBe('محروم کردن ۱۵ بازیکن و پس گرفتن ۱۲٬۳۴۰ GIFT و ۱٬۵۰۰ GIFT از ۲ معرف.');
  });

  it('is not offered to an operator who cannot take back credits', async () => {
    renderScreen('/admin/users/u1/show/risk', { routes, permissions: ['users:write'] });
    // the signal's cluster and the wallet's
    await screen.findByText('UQCrq6…urq5jh');
    expect(screen.getAllByRole('link', { name: 'Show these players' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Ban and take back' })).not.toBeInTheDocument();
  });

  it('shows wallets as wallets do (UQ…), the whole address copied, never the raw 0: form', async () => {
    renderScreen('/admin/users/u1/show/risk', { routes });
    const shown = await screen.findByText('UQCrq6…urq5jh');
    expect(shown).toHaveAttribute('data-address', FRIENDLY);
    expect(screen.queryByText(/^0:/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the address' })).toBeInTheDocument();
  });
});

describe('the bulk status dialog', () => {
  it('asks "Ban 2 players?" before the operator confirms, and says "Banned: 2 players" after', async () => {
    const { sent, user } = renderScreen('/admin/users', { routes });
    await screen.findByText('Farmhand');
    await user.click(screen.getAllByRole('checkbox', { name: /select all/i })[0]!);
    await user.click(await screen.findByRole('button', { name: 'Ban' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Ban 2 players?')).toBeInTheDocument();
    expect(screen.queryByText(/Banned: /)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Many accounts joined together through one invite' }));
    await user.click(within(dialog).getByRole('button', { name: 'Ban' }));
    await waitFor(() => expect(sent('POST /users/status')).toHaveLength(1));
    expect(await screen.findByText('Banned: 2 players')).toBeInTheDocument();
    expect(sent('POST /users/status')).toHaveLength(1);
  });

  it('asks in Persian, with Persian digits', async () => {
    const { user } = renderScreen('/admin/users', { routes, locale: 'fa' });
    await screen.findByText('Farmhand');
    await user.click(screen.getAllByRole('checkbox')[0]!);
    await user.click(await screen.findByRole('button', { name: 'محروم کردن' }));
    expect(within(await screen.findByRole('dialog')).getByText('محروم کردن ۲ بازیکن؟')).toBeInTheDocument();
  });
});
