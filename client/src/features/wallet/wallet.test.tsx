import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal, type Handlers, type OutputOf } from '../../../test/fakeTrpcServer';
import { renderApp, renderAppInPersian } from '../../../test/renderApp';
import { initI18n, setLanguage } from '../../lib/i18n';

type StatusListener = (wallet: unknown) => void | Promise<void>;

// TON Connect stubbed at its React boundary: its own modal and wallets are the library's business
const mockTonConnectUI = {
  connected: false,
  listeners: new Set<StatusListener>(),
  setConnectRequestParameters: jest.fn(),
  openModal: jest.fn(async () => {}),
  disconnect: jest.fn(async () => {
    mockTonConnectUI.connected = false;
    for (const listener of [...mockTonConnectUI.listeners]) await listener(null);
  }),
  onStatusChange(listener: StatusListener) {
    mockTonConnectUI.listeners.add(listener);
    return () => mockTonConnectUI.listeners.delete(listener);
  },
};
const mockSetOptions = jest.fn();

jest.mock('@tonconnect/ui-react', () => ({
  THEME: { DARK: 'DARK', LIGHT: 'LIGHT' },
  TonConnectUIProvider: ({ children }: { children: unknown }) => children,
  useTonConnectUI: () => [mockTonConnectUI, mockSetOptions],
}));

const ADDRESS = 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG';
const RAW = '0:6f5bc67986e06430961d9df00433926a4cd92e597ddd8aa6043645ac20bd1782';
const OTHER = 'UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';

const PLAYER: OutputOf<'user.me'> = {
  id: '65f000000000000000000001',
  telegramId: 1,
  name: 'Ada',
  username: 'ada',
  language: 'en',
  theme: 'dark',
  messagePermission: true,
  isPremium: false,
  photoUrl: '',
  isDemo: false,
  referralCode: 'ADA1',
  inviteLimit: 100,
  referrersCount: 0,
  missionsCount: 0,
  doneMissionsCount: 0,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  status: 'active',
  statusReason: '',
  coins: [],
};
const linked = (address: string, rawAddress: string) => ({
  address,
  rawAddress,
  network: '-239',
  linkedAt: new Date('2026-11-01T10:00:00Z'),
});
const GIFT = {
  coinId: '65f0000000000000000000a1',
  symbol: 'GIFT',
  name: 'Gift Coin',
  icon: '',
  balance: '1250.123456',
  minimum: '100',
  decimals: 2,
};
const TON = { coinId: '65f0000000000000000000a2', symbol: 'TON', name: 'Toncoin', icon: '', balance: '0.5', minimum: '1', decimals: 6 };
const EMPTY_HISTORY: OutputOf<'withdrawals.history'> = { items: [], total: 0, page: 1, pageSize: 20 };

function handlers(overrides: Handlers = {}): Handlers {
  return {
    'user.me': () => PLAYER,
    'wallet.list': () => [],
    'wallet.connectSettings': () => ({ twaReturnUrl: 'https://t.me/gift_bot/app' }),
    'wallet.proofPayload': () => ({ payload: 'a'.repeat(64), expiresAt: new Date(Date.now() + 15 * 60_000) }),
    'withdrawals.coins': () => [GIFT, TON],
    'withdrawals.history': () => EMPTY_HISTORY,
    ...overrides,
  };
}

/** What TON Connect reports when a wallet connects; with a ton_proof unless told otherwise. */
function walletConnects(proof: 'signed' | 'refused' | 'none' = 'signed') {
  const tonProof =
    proof === 'signed'
      ? {
          name: 'ton_proof',
          proof: {
            timestamp: 1_790_000_000,
            domain: { lengthBytes: 12, value: 'gift.example' },
            payload: 'a'.repeat(64),
            signature: 'c2lnbmF0dXJl',
          },
        }
      : { name: 'ton_proof', error: { code: 400, message: 'Method not supported' } };
  const wallet = {
    device: { appName: 'test-wallet' },
    provider: 'injected',
    account: { address: RAW, chain: '-239', publicKey: 'b'.repeat(64), walletStateInit: 'te6cckEBAQEAAgAAAEysuc0=' },
    ...(proof === 'none' ? {} : { connectItems: { tonProof } }),
  };
  mockTonConnectUI.connected = true;
  return act(async () => {
    for (const listener of [...mockTonConnectUI.listeners]) await listener(wallet);
  });
}

beforeAll(() => initI18n());
beforeEach(() => {
  mockTonConnectUI.connected = false;
  mockTonConnectUI.listeners.clear();
  jest.clearAllMocks();
});
afterEach(() => setLanguage('en'));

describe('My wallets', () => {
  it('with no wallet linked, invites the player to connect and opens TON Connect with a fresh ton_proof payload', async () => {
    renderApp('/profile/my-wallets', handlers());
    expect(await screen.findByText('No wallet linked yet. Connect your TON wallet to withdraw.')).toBeInTheDocument();
    await waitFor(() =>
      expect(mockTonConnectUI.setConnectRequestParameters).toHaveBeenLastCalledWith({
        state: 'ready',
        value: { tonProof: 'a'.repeat(64) },
      }),
    );
    expect(mockTonConnectUI.setConnectRequestParameters).toHaveBeenCalledWith({ state: 'loading' });
    expect(mockSetOptions).toHaveBeenLastCalledWith(
      expect.objectContaining({
        uiPreferences: expect.objectContaining({ theme: 'DARK' }),
        actionsConfiguration: { returnStrategy: 'back', twaReturnUrl: 'https://t.me/gift_bot/app' },
        enableAndroidBackHandler: true,
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Connect wallet' }));
    expect(mockTonConnectUI.openModal).toHaveBeenCalledTimes(1);
  });

  it('starts a new connection with a new payload when a restored wallet session is still connected', async () => {
    mockTonConnectUI.connected = true;
    let issued = 0;
    const server = renderApp(
      '/profile/my-wallets',
      handlers({ 'wallet.proofPayload': () => ({ payload: `payload-${++issued}`, expiresAt: new Date(Date.now() + 15 * 60_000) }) }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Connect wallet' }));
    expect(mockTonConnectUI.disconnect).toHaveBeenCalledTimes(1);
    expect(mockTonConnectUI.openModal).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(mockTonConnectUI.setConnectRequestParameters).toHaveBeenLastCalledWith({ state: 'ready', value: { tonProof: 'payload-1' } }),
    );
    expect(server.calls.filter((call) => call.path === 'wallet.proofPayload')).toHaveLength(1);
  });

  it('shows each address as first 4 … last 4, the full one a tap away, and its Copy button reads "Address copied!" for a moment', async () => {
    const user = userEvent.setup();
    const writeText = jest.spyOn(navigator.clipboard, 'writeText');
    renderApp('/profile/my-wallets', handlers({ 'wallet.list': () => [linked(ADDRESS, RAW), linked(OTHER, '0:00')] }));
    const rows = await screen.findAllByTestId('linked-wallet');
    expect(rows.map((row) => within(row).getAllByRole('button')[0]!.textContent)).toEqual(['UQBv…ggGG', 'UQCD…qB2N']);

    await user.click(screen.getByText('UQBv…ggGG'));
    expect(within(rows[0]!).getByText(ADDRESS)).toBeInTheDocument();

    await user.click(within(rows[0]!).getByRole('button', { name: 'Copy address' }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(within(rows[0]!).getByRole('button', { name: 'Address copied!' })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: 'Copy address' })).not.toBeInTheDocument();
    expect(await within(rows[0]!).findByRole('button', { name: 'Copy address' }, { timeout: 3000 })).toBeInTheDocument();
  });

  it('unlinks a wallet only after the player confirms', async () => {
    const user = userEvent.setup();
    let wallets = [linked(ADDRESS, RAW)];
    const server = renderApp(
      '/profile/my-wallets',
      handlers({
        'wallet.list': () => wallets,
        'wallet.unlink': () => {
          wallets = [];
          return wallets;
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Unlink' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm).toHaveTextContent('Unlink UQBv…ggGG? You can connect it again later.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some((call) => call.path === 'wallet.unlink')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Unlink' }));
    await user.click(screen.getByRole('button', { name: 'Yes, unlink' }));
    expect(await screen.findByText('Wallet unlinked')).toBeInTheDocument();
    expect(server.calls.find((call) => call.path === 'wallet.unlink')?.input).toEqual({ address: RAW });
    expect(screen.queryByTestId('linked-wallet')).not.toBeInTheDocument();
  });

  it('links a wallet that connects with a ton_proof, sending the proof and its state init to the server', async () => {
    let wallets: ReturnType<typeof linked>[] = [];
    const server = renderApp(
      '/profile/my-wallets',
      handlers({
        'wallet.list': () => wallets,
        'wallet.link': () => {
          const wallet = linked(ADDRESS, RAW);
          wallets = [wallet];
          return wallet;
        },
      }),
    );
    await screen.findByText('No wallet linked yet. Connect your TON wallet to withdraw.');
    await walletConnects('signed');
    expect(await screen.findByText('Wallet linked: UQBv…ggGG')).toBeInTheDocument();
    expect(await screen.findByText('UQBv…ggGG')).toBeInTheDocument();
    expect(server.calls.find((call) => call.path === 'wallet.link')?.input).toEqual({
      address: RAW,
      network: '-239',
      publicKey: 'b'.repeat(64),
      proof: {
        timestamp: 1_790_000_000,
        domain: { lengthBytes: 12, value: 'gift.example' },
        payload: 'a'.repeat(64),
        signature: 'c2lnbmF0dXJl',
        stateInit: 'te6cckEBAQEAAgAAAEysuc0=',
      },
    });
    expect(mockTonConnectUI.disconnect).not.toHaveBeenCalled();
  });

  it.each([
    [new Refusal('WALLET_TAKEN', 409, 'This wallet is linked to another account'), 'This wallet is linked to another account.'],
    [
      new Refusal('TON_PROOF_INVALID', 400, 'Wallet proof is invalid', { reason: 'expired' }),
      'Your wallet’s proof is out of date. Please connect again.',
    ],
    [
      new Refusal('TON_PROOF_INVALID', 400, 'Wallet proof is invalid', { reason: 'unknown_wallet' }),
      'This wallet is not supported. Please use a standard TON wallet (v3, v4 or W5).',
    ],
    [
      new Refusal('TON_PROOF_INVALID', 400, 'Wallet proof is invalid', { reason: 'testnet_not_allowed' }),
      'Testnet wallets cannot receive withdrawals. Please connect a mainnet wallet.',
    ],
  ])('shows a refusal in words (%#) and disconnects the widget', async (refusal, words) => {
    renderApp(
      '/profile/my-wallets',
      handlers({
        'wallet.link': () => {
          throw refusal;
        },
      }),
    );
    await screen.findByText('No wallet linked yet. Connect your TON wallet to withdraw.');
    await walletConnects('signed');
    expect(await screen.findByRole('alert')).toHaveTextContent(words);
    expect(mockTonConnectUI.disconnect).toHaveBeenCalledTimes(1);
    // a new payload is ready for the next try, the widget's last word. (The refusal and the disconnect may each ask for
    // one: on a slow machine the two requests do not overlap and both arrive, a known extra request, not yet merged.)
    await waitFor(() => {
      const calls = mockTonConnectUI.setConnectRequestParameters.mock.calls;
      expect(calls.filter(([p]) => p?.state === 'ready').length).toBeGreaterThanOrEqual(2);
      expect(calls.at(-1)?.[0]).toMatchObject({ state: 'ready' });
    });
  });

  it('links nothing when the wallet connects without a proof', async () => {
    const server = renderApp('/profile/my-wallets', handlers());
    await screen.findByText('No wallet linked yet. Connect your TON wallet to withdraw.');
    await walletConnects('refused');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your wallet did not prove that it is yours, so nothing was linked.');
    expect(mockTonConnectUI.disconnect).toHaveBeenCalled();
    await walletConnects('none');
    expect(server.calls.some((call) => call.path === 'wallet.link')).toBe(false);
  });

  it('speaks Persian, right-to-left', async () => {
    await renderAppInPersian('/profile/my-wallets', handlers({ 'wallet.list': () => [linked(ADDRESS, RAW)] }));
    expect(await screen.findByRole('heading', { name: 'کیف پول‌های من' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'اتصال کیف پول' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'کپی نشانی' })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
  });
});

describe('Withdraw', () => {
  const withWallet = (overrides: Handlers = {}) => handlers({ 'wallet.list': () => [linked(ADDRESS, RAW)], ...overrides });

  it("asks for a connected TON wallet first, with the coins' balances and minimums", async () => {
    renderApp('/profile/withdraw', handlers());
    expect(await screen.findByRole('alert')).toHaveTextContent('Please connect your TON wallet to continue.');
    expect(screen.getByRole('button', { name: 'Connect wallet' })).toBeInTheDocument();
    const gift = (await screen.findByText('Gift Coin')).closest('button')!;
    expect(gift).toHaveTextContent('Minimum: 100 GIFT');
    expect(gift).toHaveTextContent('1,250.123456 GIFT');
    expect(screen.queryByLabelText('Amount')).not.toBeInTheDocument();
  });

  it('names the minimum when the balance is below it', async () => {
    const user = userEvent.setup();
    renderApp('/profile/withdraw', withWallet());
    await user.click(await screen.findByText('Toncoin'));
    expect(screen.getByRole('alert')).toHaveTextContent('You must have at least 1 TON to make a withdrawal.');
    expect(screen.queryByLabelText('Amount')).not.toBeInTheDocument();
  });

  it("fills Max with the balance cut to the coin's decimals, and checks an amount exactly", async () => {
    const user = userEvent.setup();
    renderApp('/profile/withdraw', withWallet());
    const amount = await screen.findByLabelText('Amount');
    await user.click(screen.getByRole('button', { name: 'Max' }));
    expect(amount).toHaveValue('1250.12');

    await user.clear(amount);
    await user.type(amount, '150.125');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(screen.getByRole('alert')).toHaveTextContent('At most 2 decimals for GIFT');

    await user.clear(amount);
    await user.type(amount, '99.99');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    // the balance is enough: what is too small is the amount
    expect(screen.getByRole('alert')).toHaveTextContent('The smallest withdrawal is 100 GIFT');

    await user.clear(amount);
    await user.type(amount, '1250.13');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Not enough balance');
  });

  it('confirms naming the address, then sends one withdrawal for the tap and shows it pending', async () => {
    const user = userEvent.setup();
    let history = EMPTY_HISTORY;
    const server = renderApp(
      '/profile/withdraw',
      withWallet({
        'withdrawals.request': (input) => {
          const { amount } = input;
          const withdrawal = {
            id: 'w1',
            coin: { id: GIFT.coinId, symbol: 'GIFT', name: 'Gift Coin', icon: '' },
            amount,
            address: ADDRESS,
            status: 'pending' as const,
            txHash: '',
            explorerUrl: '',
            chainState: '',
            rejectReason: '',
            createdAt: new Date(),
            processedAt: null,
          };
          history = { ...EMPTY_HISTORY, items: [withdrawal], total: 1 };
          return withdrawal;
        },
        'withdrawals.history': () => history,
      }),
    );
    expect(await screen.findByTestId('withdraw-wallet')).toHaveTextContent('UQBv…ggGG');
    await user.type(screen.getByLabelText('Amount'), '150');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));

    const confirm = screen.getByRole('alertdialog', { name: 'Confirm withdrawal' });
    expect(confirm).toHaveTextContent('Send 150 GIFT to this wallet?');
    expect(within(confirm).getByTestId('confirm-address')).toHaveTextContent(ADDRESS);
    expect(server.calls.some((call) => call.path === 'withdrawals.request')).toBe(false);

    await user.dblClick(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Withdrawal of 150 GIFT requested. It is pending.')).toBeInTheDocument();
    const requests = server.calls.filter((call) => call.path === 'withdrawals.request');
    // the second tap of the double tap sends nothing: one call, not two with one key
    expect(requests).toHaveLength(1);
    expect(requests[0]!.input).toEqual({ coinId: GIFT.coinId, amount: '150', idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const row = await screen.findByTestId('withdrawal');
    expect(row).toHaveTextContent('150 GIFT');
    expect(row).toHaveTextContent('Pending');
  });

  it('opens on a coin the player can withdraw, not on the first coin they hold too little of', async () => {
    renderApp('/profile/withdraw', withWallet({ 'withdrawals.coins': () => [TON, GIFT] }));
    expect(await screen.findByLabelText('Amount')).toBeInTheDocument();
    expect(screen.getByText('Gift Coin').closest('button')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Toncoin').closest('button')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('reads an amount typed in Persian digits with a Persian decimal separator', async () => {
    const user = userEvent.setup();
    const server = renderApp('/profile/withdraw', withWallet({ 'withdrawals.request': () => new Promise(() => {}) }));
    await user.type(await screen.findByLabelText('Amount'), '۱۵۰٫۵');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Confirm withdrawal' });
    expect(confirm).toHaveTextContent('Send 150.5 GIFT to this wallet?');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(server.calls.some((call) => call.path === 'withdrawals.request')).toBe(true));
    expect(server.calls.find((call) => call.path === 'withdrawals.request')!.input).toMatchObject({ amount: '150.5' });
    expect(within(confirm).getByRole('button', { name: 'Confirm' })).toBeDisabled();
  });

  it('fills Max in Persian digits for a Persian player, and withdraws that exact amount', async () => {
    const user = userEvent.setup();
    const server = await renderAppInPersian('/profile/withdraw', withWallet({ 'withdrawals.request': () => new Promise(() => {}) }));
    const amount = await screen.findByLabelText('مقدار');
    await user.click(screen.getByRole('button', { name: 'حداکثر' }));
    expect(amount).toHaveValue('۱۲۵۰٫۱۲');
    await user.click(screen.getByRole('button', { name: 'برداشت' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'تأیید' }));
    await waitFor(() =>
      expect(server.calls.find((call) => call.path === 'withdrawals.request')?.input).toMatchObject({ amount: '1250.12' }),
    );
  });

  it("shows the server's refusal of a withdrawal", async () => {
    const user = userEvent.setup();
    renderApp(
      '/profile/withdraw',
      withWallet({
        'withdrawals.request': () => {
          throw new Refusal('INSUFFICIENT_BALANCE', 409, 'Not enough balance');
        },
      }),
    );
    await user.type(await screen.findByLabelText('Amount'), '150');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not enough balance');
  });

  it('lists the history: pending, done with a TON explorer link, rejected with the reason and the refund', async () => {
    const coin = { id: GIFT.coinId, symbol: 'GIFT', name: 'Gift Coin', icon: '' };
    const base = {
      coin,
      address: ADDRESS,
      txHash: '',
      explorerUrl: '',
      chainState: '',
      rejectReason: '',
      createdAt: new Date('2026-11-20T10:00:00Z'),
      processedAt: null,
    };
    renderApp(
      '/profile/withdraw',
      withWallet({
        'withdrawals.history': () => ({
          ...EMPTY_HISTORY,
          total: 3,
          items: [
            { ...base, id: 'w3', amount: '120', status: 'pending' },
            {
              ...base,
              id: 'w2',
              amount: '200',
              status: 'done',
              txHash: 'f00dbabe'.repeat(8),
              explorerUrl: `https://tonviewer.com/transaction/${'f00dbabe'.repeat(8)}`,
            },
            { ...base, id: 'w1', amount: '300', status: 'rejected', rejectReason: 'Address is a bounceable contract' },
          ],
        }),
      }),
    );
    const [pending, done, rejected] = await screen.findAllByTestId('withdrawal');
    expect(pending).toHaveTextContent('Pending');
    expect(within(done!).getByRole('link', { name: 'View transaction' })).toHaveAttribute(
      'href',
      `https://tonviewer.com/transaction/${'f00dbabe'.repeat(8)}`,
    );
    expect(done).toHaveTextContent('Done');
    expect(rejected).toHaveTextContent('Rejected');
    expect(rejected).toHaveTextContent('Reason: Address is a bounceable contract');
    expect(rejected).toHaveTextContent('Refunded 300 GIFT');
  });

  it('speaks Persian, right-to-left', async () => {
    await renderAppInPersian('/profile/withdraw', handlers());
    expect(await screen.findByRole('alert')).toHaveTextContent('لطفاً برای ادامه کیف پول TON خود را متصل کنید.');
    expect(await screen.findByText('هنوز برداشتی انجام نشده است.')).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
  });
});

describe('Profile', () => {
  it('shows the connected wallet, linking to My wallets, beside Withdraw', async () => {
    renderApp('/profile', handlers({ 'wallet.list': () => [linked(ADDRESS, RAW)] }));
    const wallet = await screen.findByTestId('profile-wallet');
    expect(wallet).toHaveTextContent('Connected wallet');
    expect(wallet).toHaveTextContent('UQBv…ggGG');
    expect(wallet).toHaveAttribute('href', '/profile/my-wallets');
    expect(screen.getByRole('link', { name: 'Withdraw' })).toHaveAttribute('href', '/profile/withdraw');
  });
});
