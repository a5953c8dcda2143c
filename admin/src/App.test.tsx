import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthProvider, DataProvider } from 'react-admin';
import { App } from './App';
import { mayAccess } from './authProvider';
import { i18nProvider } from './i18n/i18nProvider';

const PLAYERS = [
  {
    id: 'u1',
    telegramId: 1001,
    name: 'Ali Rezaei',
    username: 'ali',
    referrersCount: 2,
    missionsCount: 5,
    doneMissionsCount: 3,
    inviteLimit: 100,
    status: 'active',
    risk: { score: 0, level: 'low', signals: [] },
    createdAt: '2026-01-02T10:00:00.000Z',
  },
];

function fakeApi(): DataProvider {
  return {
    getList: async (resource) => (resource === 'users' ? { data: PLAYERS, total: PLAYERS.length } : { data: [], total: 0 }),
    getOne: async () => ({ data: PLAYERS[0]! }),
    getMany: async () => ({ data: [] }),
    getManyReference: async () => ({ data: [], total: 0 }),
    create: async () => ({ data: PLAYERS[0]! }),
    update: async () => ({ data: PLAYERS[0]! }),
    updateMany: async () => ({ data: [] }),
    delete: async () => ({ data: PLAYERS[0]! }),
    deleteMany: async () => ({ data: [] }),
  } as DataProvider;
}

function signedIn(permissions: string[]): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ id: 'a1', fullName: 'maria' }),
    getPermissions: async () => permissions,
    canAccess: async ({ resource, action }) => mayAccess(permissions, resource, action),
  };
}

// the whole console renders per test: more than the default 5 s on a slow machine
jest.setTimeout(30_000);

beforeEach(() => window.history.replaceState({}, '', '/admin/users'));

it("lists players with the spec's columns and the created date", async () => {
  render(<App dataProvider={fakeApi()} authProvider={signedIn(['*'])} />);
  expect(await screen.findByText('Ali Rezaei', undefined, { timeout: 8000 })).toBeInTheDocument();
  for (const column of ['Telegram id', 'Name', 'Username', 'Referrers count', 'Done missions count', 'Created']) {
    expect(screen.getAllByText(column).length).toBeGreaterThan(0);
  }
});

/** The menu an operator holding `permissions` sees once the players' list has loaded, and its items' names. */
async function menuFor(permissions: string[]) {
  render(<App dataProvider={fakeApi()} authProvider={signedIn(permissions)} />);
  await screen.findByText('Ali Rezaei', undefined, { timeout: 8000 });
  const menu = await screen.findByRole('menu');
  return {
    menu,
    labels: within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent?.trim()),
  };
}

it("shows the spec's menu, in its order (the Risk list beside Users), then Broadcasts, Gifts and the figures, to an operator with every permission", async () => {
  const { menu, labels } = await menuFor(['*']);
  expect(labels).toEqual([
    'Dashboard',
    'Gift Coins',
    'Categories',
    'Covers',
    'Partners',
    'Missions',
    'Users',
    'Risk',
    'User Missions',
    'Staking Coins',
    'Withdraws',
    'Accounts',
    'App Config',
    'Audit',
    'Broadcasts',
    'Gifts',
    'Appeals',
    'Help questions',
    // what brings players back: the Stars shop and the weekly leagues
    'Stars shop',
    'Stars purchases',
    'League standings',
    'League prizes',
    'Analytics',
    'Books',
    'Logout',
  ]);
  expect(within(menu).getByRole('menuitem', { name: 'Withdraws' })).toHaveAttribute('href', '/admin/withdraw');
  expect(within(menu).getByRole('menuitem', { name: 'Books' })).toHaveAttribute('href', '/admin/books');
  expect(within(menu).getByRole('menuitem', { name: 'App Config' })).toHaveAttribute('href', '/admin/app-config');
  expect(within(menu).getByRole('menuitem', { name: 'Users' })).toHaveAttribute('href', '/admin/users');
});

it('hides from the menu what the account may not use', async () => {
  const { labels } = await menuFor(['users:read']);
  expect(labels).toEqual(['Dashboard', 'Users', 'Risk', 'Analytics', 'Logout']);
});

it("shows a player's balance and ledger figures per coin on the player's page", async () => {
  const api = fakeApi();
  api.getOne = async () =>
    ({
      data: {
        ...PLAYERS[0]!,
        coins: [
          { coin: 'c1', symbol: 'GIFT', balance: '1250.5', rewards: '1000', earned: '240.5', withdrawn: '0', gifts: '10' },
          { coin: 'c2', symbol: 'TON', balance: '3', rewards: '0', earned: '0', withdrawn: '2', gifts: '5' },
        ],
      },
    }) as never;
  window.history.replaceState({}, '', '/admin/users/u1/show');
  render(<App dataProvider={api} authProvider={signedIn(['*'])} />);
  const gift = (await screen.findByText('GIFT', undefined, { timeout: 8000 })).closest('tr')!;
  expect(within(gift).getByText('1250.5')).toBeInTheDocument();
  expect(within(gift).getByText('240.5')).toBeInTheDocument();
  const ton = screen.getByText('TON').closest('tr')!;
  expect(within(ton).getByText('2')).toBeInTheDocument();
});

it("opens a withdrawal's player to a withdrawals operator, read-only: figures and risk, not the ledger, the edit or the status", async () => {
  const api = fakeApi();
  api.getOne = async () =>
    ({
      data: {
        ...PLAYERS[0]!,
        walletAddresses: ['0:' + 'ab'.repeat(32)],
        risk: {
          score: 35,
          level: 'review',
          signals: [{ signal: 'sharedWallet', strength: 1, points: 35, evidence: { players: 1, address: '0:' + 'ab'.repeat(32) } }],
        },
        coins: [{ coin: 'c1', symbol: 'GIFT', balance: '12', rewards: '0', earned: '0', withdrawn: '0', gifts: '0' }],
      },
    }) as never;
  window.history.replaceState({}, '', '/admin/users/u1/show');
  render(<App dataProvider={api} authProvider={signedIn(['withdraws:write'])} />);
  expect(await screen.findByText('GIFT', undefined, { timeout: 8000 })).toBeInTheDocument();
  const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
  expect(tabs).toEqual(['Summary', 'Risk', 'Withdrawals']);
  expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Freeze' })).not.toBeInTheDocument();
  screen.getByRole('tab', { name: 'Risk' }).click();
  expect(await screen.findByText('A wallet of theirs is, or was, also linked to other players: 1')).toBeInTheDocument();
  expect(screen.getByText(/^Review: read the signals/)).toBeInTheDocument();
});

it("shows the referral tree two levels deep on the player's Friends tab, each friend with their score", async () => {
  const api = fakeApi();
  const friend = {
    id: 'f1',
    name: 'First Friend',
    username: 'first',
    referrersCount: 1,
    status: 'active',
    risk: { score: 35, level: 'review', signals: [] },
    createdAt: '2026-02-01T10:00:00.000Z',
  };
  const friendOfFriend = {
    id: 'g1',
    name: 'Second Level',
    username: 'second',
    status: 'frozen',
    risk: { score: 80, level: 'high', signals: [] },
    createdAt: '2026-03-01T10:00:00.000Z',
  };
  api.getManyReference = async (_resource, params) =>
    ({
      data: params.id === 'u1' ? [friend] : params.id === 'f1' ? [friendOfFriend] : [],
      total: params.id === 'u1' || params.id === 'f1' ? 1 : 0,
    }) as never;
  window.history.replaceState({}, '', '/admin/users/u1/show/friends');
  render(<App dataProvider={api} authProvider={signedIn(['*'])} />);
  const row = (await screen.findByText('First Friend', undefined, { timeout: 8000 })).closest('tr')!;
  expect(within(row).getByText('35 · Review')).toBeInTheDocument();
  // react-admin hides its expand icon from assistive technology (aria-hidden): found by the row it controls
  row.querySelector<HTMLElement>('[aria-controls="f1-expand"]')!.click();
  expect(await screen.findByText('Second Level')).toBeInTheDocument();
  expect(screen.getByText('80 · High')).toBeInTheDocument();
  expect(screen.getByText('Frozen')).toBeInTheDocument();
});

describe('in Persian', () => {
  afterEach(async () => {
    // the language is kept in localStorage and in the (module-wide) i18n provider: back to English for the next test
    localStorage.clear();
    await i18nProvider.changeLocale('en');
    document.documentElement.dir = '';
  });

  it("switches to Persian from the app bar's language menu: right to left, Persian labels and Persian dates, kept after a reload", async () => {
    const user = userEvent.setup();
    const { unmount } = render(<App dataProvider={fakeApi()} authProvider={signedIn(['*'])} />);
    await screen.findByText('Ali Rezaei', undefined, { timeout: 8000 });
    expect(document.documentElement.dir).toBe('ltr');
    await user.click(screen.getByRole('button', { name: 'English' }));
    await user.click(await screen.findByRole('menuitem', { name: 'فارسی' }));

    const menu = await screen.findByRole('menu');
    expect(await within(menu).findByRole('menuitem', { name: 'کاربران' })).toHaveAttribute('href', '/admin/users');
    expect(within(menu).getByRole('menuitem', { name: 'تنظیمات برنامه' })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('fa');
    // the column names and the created date, in the Solar Hijri calendar with Persian digits, its time after a Persian comma
    for (const column of ['شناسهٔ تلگرام', 'نام', 'ایجاد']) expect(screen.getAllByText(column).length).toBeGreaterThan(0);
    expect(screen.getByText(/۱۲ دی ۱۴۰۴، /)).toBeInTheDocument();
    // MUI's styles are written mirrored (the right-to-left style cache): padding-right where English has padding-left
    const mirrored = [...document.querySelectorAll<HTMLStyleElement>('style[data-emotion^="muirtl"]')]
      .flatMap((style) => [...(style.sheet?.cssRules ?? [])].map((rule) => rule.cssText))
      .join('\n');
    expect(mirrored).toMatch(/padding-right/);

    unmount();
    render(<App dataProvider={fakeApi()} authProvider={signedIn(['*'])} />);
    expect(
      await within(await screen.findByRole('menu')).findByRole('menuitem', { name: 'کاربران' }, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
  });
});
