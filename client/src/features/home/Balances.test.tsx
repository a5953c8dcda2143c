import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEMO_PLAYER } from '../../../test/fixtures';
import { renderApp, signedInPlayer, renderAppInPersian } from '../../../test/renderApp';
import { initI18n, setLanguage } from '../../lib/i18n';

const GIFT = DEMO_PLAYER.coins[0]!;
const STAR = { ...GIFT, coinId: 'c2', symbol: 'STAR', name: 'Star Points', balance: '10' };
const STAR_MINING = {
  configured: true,
  active: null,
  readyAmounts: [{ coin: { id: 'c2', symbol: 'STAR' }, amount: '240' }],
  coin: { id: 'c2', symbol: 'STAR' },
  earnAmount: '240',
  earnDurationHours: 8,
  serverTime: new Date(),
};

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

const balances = async () => within(await screen.findByRole('region', { name: 'Your coins' }));

it("shows the player's balances on Home, the mining coin first", async () => {
  renderApp('/', {
    ...signedInPlayer,
    'user.me': () => ({ ...DEMO_PLAYER, coins: [GIFT, STAR] }),
    'mining.status': () => ({ ...STAR_MINING, readyToMove: 0 }),
  });
  const region = await balances();
  await waitFor(() => expect(region.getAllByTestId('balance').map((row) => row.textContent)).toEqual(['10 STAR', '1,250.5 GIFT']));
});

it('counts a credited balance up to its new value, marked as rising while it counts', async () => {
  let star = '10';
  let ready = 1;
  renderApp('/', {
    ...signedInPlayer,
    'user.me': () => ({ ...DEMO_PLAYER, coins: [GIFT, { ...STAR, balance: star }] }),
    'mining.status': () => ({ ...STAR_MINING, readyToMove: ready, readyAmounts: ready ? STAR_MINING.readyAmounts : [] }),
    'mining.move': () => {
      ready = 0;
      star = '250';
      return { count: 1, amounts: [{ coin: { id: 'c2', symbol: 'STAR' }, amount: '240' }], message: 'Moved 1 mining rewards to wallet' };
    },
  });
  const region = await balances();
  await waitFor(() => expect(region.getAllByTestId('balance')[0]).toHaveTextContent('10 STAR'));
  await userEvent.click(await screen.findByRole('button', { name: 'Move to Wallet' }));
  const row = () => region.getAllByTestId('balance')[0]!;
  await waitFor(() => expect(row()).toHaveClass('rising'));
  // part way: an exact amount between the two, never above the new balance
  const between = Number(row().textContent.replace(/[^\d.]/g, ''));
  expect(between).toBeGreaterThanOrEqual(10);
  expect(between).toBeLessThanOrEqual(250);
  await waitFor(() => expect(row()).toHaveTextContent('250 STAR'));
  await waitFor(() => expect(row()).not.toHaveClass('rising'));
});

it('writes the balances in Persian digits in Persian', async () => {
  await renderAppInPersian('/', { ...signedInPlayer, 'user.me': () => ({ ...DEMO_PLAYER, language: 'fa', coins: [GIFT] }) });
  const region = within(await screen.findByRole('region', { name: 'سکه‌های شما' }));
  expect(region.getByTestId('balance')).toHaveTextContent('۱٬۲۵۰٫۵ GIFT');
});
