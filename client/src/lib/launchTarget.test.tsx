import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp, signedInPlayer } from '../../test/renderApp';
import { initI18n } from './i18n';
import { followLaunchTarget } from './launchTarget';

const STAKE_ID = '65a1b2c3d4e5f60718293a4b';
const LEAGUE = {
  league: 'gold' as const,
  week: '2026-11-23',
  endsAt: new Date(Date.now() + 86_400_000),
  coin: { symbol: 'GIFT', decimals: 9 },
  entries: [{ rank: 1, name: 'Sara', score: '1200', me: false }],
  me: { rank: 1, score: '1200' },
  around: [],
};
const handlers = {
  ...signedInPlayer,
  'leagues.current': () => LEAGUE,
  'leagues.friends': () => [],
  'staking.offers': () => [],
  'staking.positions': () => [
    {
      id: STAKE_ID,
      coin: { id: 'c1', symbol: 'GIFT' },
      amount: '100',
      duration: 'week' as const,
      percent: '1',
      profit: '1',
      total: '101',
      startedAt: new Date(Date.now() - 8 * 86_400_000),
      unlocksAt: new Date(Date.now() - 86_400_000),
      claimedAt: null,
      secondsLeft: 0,
      claimable: true,
    },
  ],
};

/** Launch data as Telegram signs it (the app forwards it; only the server checks it). */
const launchData = (startParam?: string) =>
  encodeURIComponent(
    `user=${encodeURIComponent('{"id":1,"first_name":"Demo"}')}&auth_date=1700000000${startParam ? `&start_param=${startParam}` : ''}&hash=x`,
  );

/** The app opened by Telegram at its address with this launch in the hash, as boot.tsx starts it. */
function launch(hash: string, at = '/') {
  window.history.replaceState(null, '', `${at}#${hash}`);
  followLaunchTarget();
  renderApp(null, handlers);
}

const scrolledTo: string[] = [];
beforeAll(() => initI18n());
beforeAll(() => {
  // jsdom lays nothing out: every part lies below the screen, and the part the launch brought into view is recorded
  Element.prototype.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 5000, width: 300, height: 40 });
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolledTo.push(this.id);
  };
});
afterEach(() => {
  scrolledTo.length = 0;
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

it("opens the page a bot message's button names, once: going home afterwards stays home", async () => {
  launch(`tgWebAppData=${launchData('go-leagues')}&tgWebAppVersion=8.0&tgWebAppStartParam=go-leagues`);
  expect(await screen.findByRole('heading', { name: 'Leagues', level: 1 })).toBeInTheDocument();
  // the launch data stays where the app reads it
  expect(window.location.pathname).toBe('/leagues');
  expect(window.location.hash).toContain('tgWebAppData=');

  await userEvent.click(screen.getByRole('link', { name: 'Tasks' }));
  expect(await screen.findByRole('heading', { name: 'Tasks', level: 1 })).toBeInTheDocument();
  expect(window.location.pathname).toBe('/');
  // later renders (the session's data arriving) and a step back in history do not take the player there again
  await screen.findByRole('heading', { name: 'Mining' });
  window.history.back();
  await waitFor(() => expect(window.location.pathname).toBe('/leagues'));
  window.history.forward();
  await waitFor(() => expect(window.location.pathname).toBe('/'));
  expect(await screen.findByRole('heading', { name: 'Tasks', level: 1 })).toBeInTheDocument();
});

it('reads the target from the signed launch data when Telegram passed no tgWebAppStartParam, and brings that stake into view', async () => {
  launch(`tgWebAppData=${launchData(`go-stakes-${STAKE_ID}`)}&tgWebAppVersion=7.0`);
  expect(await screen.findByRole('heading', { name: 'Staking', level: 1 })).toBeInTheDocument();
  await screen.findByRole('button', { name: 'Claim' });
  await waitFor(() => expect(scrolledTo.at(-1)).toBe(`stake-${STAKE_ID}`));
});

it.each([
  ['a referral code', 'Ab3_x-9Z'],
  ['a referral code that starts with go-', 'go-abcde'],
  ['a page target this version does not know', 'go-treasure'],
])('opens home for %s', async (_, startParam) => {
  launch(`tgWebAppData=${launchData(startParam)}&tgWebAppVersion=8.0&tgWebAppStartParam=${startParam}`);
  expect(await screen.findByRole('heading', { name: 'Tasks', level: 1 })).toBeInTheDocument();
  expect(window.location.pathname).toBe('/');
  expect(scrolledTo).toEqual([]);
});

it('opens home for a launch without a start parameter', async () => {
  launch(`tgWebAppData=${launchData()}&tgWebAppVersion=8.0`);
  expect(await screen.findByRole('heading', { name: 'Tasks', level: 1 })).toBeInTheDocument();
  expect(window.location.pathname).toBe('/');
});

it('leaves an address that is not home as it is: a link to a page wins over a start parameter', async () => {
  launch(`tgWebAppData=${launchData('go-leagues')}&tgWebAppVersion=8.0&tgWebAppStartParam=go-leagues`, '/currency');
  expect(await screen.findByRole('heading', { name: 'Currency', level: 1 })).toBeInTheDocument();
  expect(window.location.pathname).toBe('/currency');
});

it('brings the part into view however long a slow phone takes to render it, and aligns it for a few seconds from then', async () => {
  jest.useFakeTimers();
  try {
    window.history.replaceState(null, '', `/#tgWebAppData=${launchData('go-mining')}&tgWebAppVersion=8.0&tgWebAppStartParam=go-mining`);
    followLaunchTarget();
    // home's data and its render in slices take longer than the alignment itself lasts
    jest.advanceTimersByTime(9000);
    const mining = document.body.appendChild(Object.assign(document.createElement('section'), { id: 'mining' }));
    await waitFor(() => expect(scrolledTo).toEqual(['mining']));
    // pictures arriving above it keep it aligned a little longer
    jest.advanceTimersByTime(3000);
    document.body.prepend(document.createElement('img'));
    await waitFor(() => expect(scrolledTo).toEqual(['mining', 'mining']));
    // and then the page is the player's: later changes move nothing
    jest.advanceTimersByTime(2000);
    document.body.prepend(document.createElement('img'));
    await Promise.resolve();
    expect(scrolledTo).toEqual(['mining', 'mining']);
    mining.remove();
  } finally {
    jest.useRealTimers();
  }
});
