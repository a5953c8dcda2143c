import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal } from '../../../test/fakeTrpcServer';
import { renderApp, signedInPlayer, renderAppInPersian } from '../../../test/renderApp';
import { initI18n, setLanguage } from '../../lib/i18n';
import { minedAt } from './MiningCard';

const COIN = { id: 'c1', symbol: 'GIFT' };
const idle = () => ({
  configured: true,
  active: null,
  readyToMove: 0,
  readyAmounts: [],
  coin: COIN,
  earnAmount: '240',
  earnDurationHours: 8,
  serverTime: new Date(),
});

function running(startedAgoMs: number, lengthMs: number) {
  const now = Date.now();
  return {
    ...idle(),
    active: {
      id: '65f0000000000000000000d1',
      startedAt: new Date(now - startedAgoMs),
      endsAt: new Date(now - startedAgoMs + lengthMs),
      amount: '240',
      minedSoFar: '0',
      ratePerHour: '30',
      remainingSeconds: Math.ceil((lengthMs - startedAgoMs) / 1000),
      multiplierPercent: null as number | null,
    },
  };
}

const card = async () => within((await screen.findByRole('heading', { name: 'Mining' })).closest('section')!);

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

it('counts exactly, in micro-units, from the session times', () => {
  const session = { amount: '240', startedAt: new Date(0), endsAt: new Date(8 * 3600_000) };
  expect(minedAt(session, 3600_000)).toBe('30');
  expect(minedAt(session, 1000)).toBe('0.008333');
  expect(minedAt(session, 9 * 3600_000)).toBe('240');
});

it("when idle says 'No GIFT mining is active, tap Start to begin.' and Start starts a session", async () => {
  let status: ReturnType<typeof idle> | ReturnType<typeof running> = idle();
  const server = renderApp('/', {
    ...signedInPlayer,
    'mining.status': () => status,
    'mining.start': () => {
      status = running(0, 8 * 3600_000);
      return status.active;
    },
  });
  const mining = await card();
  expect(await mining.findByText('No GIFT mining is active, tap Start to begin.')).toBeInTheDocument();
  expect(mining.getByText('240 GIFT every 8 h')).toBeInTheDocument();
  // a double tap starts one session: the second tap sends nothing, so no "already running" follows
  await userEvent.dblClick(mining.getByRole('button', { name: 'Start' }));
  expect(await screen.findByText('Mining started')).toBeInTheDocument();
  expect(await mining.findByText('30 GIFT / h')).toBeInTheDocument();
  expect(server.calls.filter((call) => call.path === 'mining.start')).toHaveLength(1);
});

it('while running, ticks the coins and the time remaining every second without asking the server again', async () => {
  const server = renderApp('/', { ...signedInPlayer, 'mining.status': () => running(3600_000, 8 * 3600_000) });
  const mining = await card();
  const mined = await mining.findByTestId('mined-so-far');
  expect(mined.textContent).toMatch(/^30(\.\d+)? GIFT$/);
  const remaining = mining.getByRole('timer');
  expect(remaining.textContent).toMatch(/^(07:00:00|06:59:5\d)$/);
  const before = mined.textContent;
  await waitFor(() => expect(mined.textContent).not.toBe(before), { timeout: 2500 });
  expect(remaining.textContent).toMatch(/^06:59:5\d$/);
  expect(server.calls.filter((call) => call.path === 'mining.status')).toHaveLength(1);
});

it("shows 'Completed mining ready to move' with the count, and Move answers 'Moved 2 mining rewards to wallet', then 'Nothing to move'", async () => {
  let ready = 2;
  const server = renderApp('/', {
    ...signedInPlayer,
    'mining.status': () => ({ ...idle(), readyToMove: ready, readyAmounts: ready ? [{ coin: COIN, amount: '480' }] : [] }),
    'mining.move': () => {
      if (!ready) throw new Refusal('NOTHING_TO_MOVE', 400, 'Nothing to move');
      const count = ready;
      ready = 0;
      return { count, amounts: [{ coin: COIN, amount: '480' }], message: `Moved ${count} mining rewards to wallet` };
    },
  });
  const mining = await card();
  expect(await mining.findByText('Completed mining ready to move')).toBeInTheDocument();
  expect(mining.getByTestId('ready-count')).toHaveTextContent('2');
  await userEvent.dblClick(mining.getByRole('button', { name: 'Move to Wallet' }));
  expect(await screen.findByText('Moved 2 mining rewards to wallet')).toBeInTheDocument();
  expect(server.calls.filter((call) => call.path === 'mining.move')).toHaveLength(1);
  expect(screen.queryByText('Nothing to move')).not.toBeInTheDocument();
  await waitFor(() => expect(mining.queryByText('Completed mining ready to move')).not.toBeInTheDocument());
  await userEvent.click(mining.getByRole('button', { name: 'Move to Wallet' }));
  expect(await screen.findByText('Nothing to move')).toBeInTheDocument();
});

it('shows the Stars shop multiplier a session runs with, and leads to the shop', async () => {
  const boosted = running(3600_000, 8 * 3600_000);
  boosted.active.multiplierPercent = 150;
  renderApp('/', {
    ...signedInPlayer,
    'mining.status': () => boosted,
    'shop.offers': () => [],
    'shop.boosts': () => ({ multipliers: [], streakFreezes: 0 }),
  });
  const mining = await card();
  expect(await mining.findByTestId('mining-multiplier')).toHaveTextContent('×1.5 boost');
  await userEvent.click(mining.getByRole('link', { name: 'Boosts for Telegram Stars' }));
  expect(await screen.findByRole('heading', { name: 'Boosts shop' })).toBeInTheDocument();
});

it('says when mining is not set up, and shows a failed status as an error', async () => {
  renderApp('/', { ...signedInPlayer, 'mining.status': () => ({ ...idle(), configured: false, coin: null }) });
  expect(await (await card()).findByText('Mining is not available yet.')).toBeInTheDocument();
});

it('shows a failed status as an error', async () => {
  renderApp('/', {
    ...signedInPlayer,
    'mining.status': () => {
      throw new Refusal('FORBIDDEN', 403, 'You do not have permission to do this');
    },
  });
  expect(await (await card()).findByRole('alert')).toHaveTextContent('You do not have permission to do this');
});

it('writes the mined coins, the rate and the time left in Persian digits in Persian', async () => {
  await renderAppInPersian('/', { ...signedInPlayer, 'mining.status': () => running(3600_000, 8 * 3600_000) });
  const mining = within((await screen.findByRole('heading', { name: 'استخراج' })).closest('section')!);
  expect((await mining.findByTestId('mined-so-far')).textContent).toMatch(/^۳۰(٫[۰-۹]+)? GIFT$/);
  expect(mining.getByRole('timer').textContent).toMatch(/^(۰۷:۰۰:۰۰|۰۶:۵۹:۵[۰-۹])$/);
});

it('keeps the terms a running session started under when App Config changed them since', async () => {
  // the session started at 240 GIFT every 8 h; an operator has since set 500 GIFT every 4 h
  const started = running(3600_000, 8 * 3600_000);
  renderApp('/', { ...signedInPlayer, 'mining.status': () => ({ ...started, earnAmount: '500', earnDurationHours: 4 }) });
  const section = await card();
  expect(section.getByTestId('mining-terms')).toHaveTextContent('240 GIFT every 8 h');
  expect(section.getByText('30 GIFT / h')).toBeInTheDocument();
});
