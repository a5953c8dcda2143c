import type { BrowserContext, Page } from 'playwright-core';
import { AppConfigModel } from '../server/src/modules/config/appConfig.model';
import { WalletLinkModel } from '../server/src/modules/wallet/wallet.models';
import { WithdrawalModel } from '../server/src/modules/withdrawals/withdrawal.model';
import { createCoin, createPlayer, fund } from '../server/test/factories';
import { signTonProof, testWallet, type TestWallet } from '../server/test/tonWallet';
import { useProduct } from './fixture';
import { DESKTOP, PHONE, shot } from './support';

// a real browser against a live server: minutes, not the 5 s of unit tests
jest.setTimeout(240_000);

/** The wallet app in the page: its JS bridge key, and its entry in the local wallets list. */
const BRIDGE_KEY = 'e2ewallet';
const WALLETS_LIST_URL = 'https://config.ton.org/wallets-v2.json';

const product = useProduct({ telegram: true });
let wallet: TestWallet;
let coinSymbol: string;
const telegramIds = { first: 0, second: 0 };

/** TON Connect's wallets list, served from the test: our wallet (injected) and Telegram's, which the widget expects. */
function localWalletsList(base: string) {
  return [
    {
      app_name: BRIDGE_KEY,
      name: 'E2E Wallet',
      image: `${base}/icon-192.png`,
      about_url: `${base}/`,
      bridge: [{ type: 'js', key: BRIDGE_KEY }],
      // a browser extension: TON Connect offers injected wallets on wide screens, mobile ones through universal links
      platforms: ['chrome', 'firefox', 'safari'],
      features: [{ name: 'SendTransaction', maxMessages: 4 }],
    },
    {
      app_name: 'telegram-wallet',
      name: 'Wallet',
      image: `${base}/icon-192.png`,
      about_url: 'https://wallet.tg/',
      universal_url: 'https://t.me/wallet?attach=wallet',
      bridge: [{ type: 'sse', url: 'https://walletbot.me/tonconnect-bridge/bridge' }],
      platforms: ['ios', 'android', 'macos', 'windows', 'linux'],
      features: [{ name: 'SendTransaction', maxMessages: 4 }],
    },
  ];
}

/**
 * The page side of TON Connect's JS bridge (`window[jsBridgeKey].tonconnect`). It holds no key: it asks
 * the test, through an exposed binding, to sign the ton_proof, as a wallet app would with its own key.
 */
function injectWalletBridge(key: string) {
  const device = {
    platform: 'browser',
    appName: key,
    appVersion: '1.0.0',
    maxProtocolVersion: 2,
    features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
  };
  const call = (window as unknown as { e2eWalletCall: (method: string, request: unknown) => Promise<unknown> }).e2eWalletCall;
  let connected: unknown = null;
  const listeners = new Set<(event: unknown) => void>();
  (window as unknown as Record<string, unknown>)[key] = {
    tonconnect: {
      deviceInfo: device,
      walletInfo: {
        name: 'E2E Wallet',
        app_name: key,
        image: `${location.origin}/icon-192.png`,
        about_url: `${location.origin}/`,
        platforms: ['chrome'],
      },
      protocolVersion: 2,
      isWalletBrowser: false,
      async connect(_version: number, request: unknown) {
        const items = await call('connect', request);
        connected = { event: 'connect', id: Date.now(), payload: { items, device } };
        return connected;
      },
      async restoreConnection() {
        return connected ?? { event: 'connect_error', id: Date.now(), payload: { code: 0, message: 'not connected' } };
      },
      async send(message: { id: string; method: string }) {
        if (message.method === 'disconnect') connected = null;
        return { id: message.id, result: {} };
      },
      listen(listener: (event: unknown) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

/** Signs what the page asks for with the test's own Ed25519 key, for the host the page is on. */
async function answerWallet(page: Page, method: string, request: unknown) {
  if (method !== 'connect') throw new Error(`unexpected wallet call ${method}`);
  const items = (request as { items: Array<{ name: string; payload?: string }> }).items;
  const account = {
    name: 'ton_addr',
    address: wallet.address.toRawString(),
    network: '-239',
    publicKey: wallet.keyPair.publicKey.toString('hex'),
    walletStateInit: '',
  };
  const proofItem = items.find((item) => item.name === 'ton_proof');
  const signed = signTonProof(wallet, {
    payload: proofItem?.payload ?? '',
    domain: new URL(page.url()).host,
    timestamp: Math.floor(Date.now() / 1000),
  });
  account.walletStateInit = signed.proof.stateInit;
  if (!proofItem) return [account];
  const { stateInit: _stateInit, ...proof } = signed.proof;
  return [account, { name: 'ton_proof', proof }];
}

async function prepareContext(context: BrowserContext, base: string) {
  // nothing leaves the machine: the wallets list is the test's, everything else off this server is refused
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base)) return route.continue();
    if (url === WALLETS_LIST_URL) return route.fulfill({ json: localWalletsList(base) });
    return route.abort();
  });
  await context.exposeBinding('e2eWalletCall', ({ page }, method: string, request: unknown) => answerWallet(page, method, request));
  await context.addInitScript(injectWalletBridge, BRIDGE_KEY);
}

beforeAll(async () => {
  // the wallet proves ownership for the host the app is served from, as configured by an operator
  await AppConfigModel.findOneAndUpdate({ key: 'app' }, { $set: { tonProofDomains: [new URL(product.base).host] } }, { upsert: true });
  const coin = await createCoin({ name: 'Gift Coin', symbol: 'GIFT', minWithdraw: '100', decimals: 9, network: 'ton' });
  coinSymbol = coin.symbol;
  const [first, second] = await Promise.all([createPlayer({ name: 'Ada', language: 'en' }), createPlayer({ name: 'Bob', language: 'en' })]);
  telegramIds.first = first.telegramId;
  telegramIds.second = second.telegramId;
  await fund(first._id, coin._id, '150.5');
  wallet = testWallet('v5R1-library');
  await prepareContext(product.browser.context, product.base);
});

const launch = (telegramId: number, pagePath: string) =>
  product.telegramUrl(pagePath, { id: telegramId, first_name: 'Player', language_code: 'en' });

/** TON Connect's own modal, opened by the app's Connect wallet button; it is the library's, never re-implemented. */
async function openConnectModal(page: Page, buttonName = 'Connect wallet') {
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  const modal = page.locator('[data-tc-wallets-modal-container]');
  await modal.waitFor();
  // the bottom sheet slides in (spec: 200 ms on mobile); let it settle before a screenshot
  await page.waitForTimeout(600);
  return modal;
}

/** Picks the injected wallet in TON Connect's desktop list, where browser-extension wallets are offered. */
async function connectInjectedWallet(page: Page, screenshot?: string) {
  await page.setViewportSize(DESKTOP);
  const modal = await openConnectModal(page);
  if (screenshot) await shot(page, screenshot);
  await modal.getByText('E2E Wallet').first().click();
  // the modal closes once the wallet has answered; resizing before that would make TON Connect redraw it for a
  // phone, whose QR view asks the connected wallet to connect again and throws (a player's phone never changes size)
  await modal.waitFor({ state: 'detached' });
  await page.setViewportSize(PHONE);
}

async function closeConnectModal(page: Page) {
  await page.keyboard.press('Escape');
  await page.locator('[data-tc-wallets-modal-container]').waitFor({ state: 'detached' });
}

describe('a wallet inside the page, through TON Connect', () => {
  it('connects with a real ton_proof, appears in My wallets, and withdraws the minimum, shown pending', async () => {
    const page = await product.openPage();
    await page.goto(launch(telegramIds.first, '/profile/withdraw'));
    await page.getByRole('alert').filter({ hasText: 'Please connect your TON wallet to continue.' }).waitFor();
    await shot(page, 'wallet-withdraw-connect-prompt-en');

    await openConnectModal(page);
    await shot(page, 'wallet-connect-modal-en');
    await closeConnectModal(page);
    await connectInjectedWallet(page, 'wallet-connect-modal-desktop-en');
    await page.getByRole('status').filter({ hasText: 'Wallet linked:' }).waitFor();
    const friendly = wallet.address.toString({ bounceable: false });
    const short = `${friendly.slice(0, 4)}…${friendly.slice(-4)}`;
    await expect(page.getByTestId('withdraw-wallet').textContent()).resolves.toBe(short);
    expect(await WalletLinkModel.countDocuments({ address: wallet.address.toRawString(), unlinkedAt: null })).toBe(1);

    await page.getByRole('link', { name: 'My wallets' }).click();
    await page.getByTestId('linked-wallet').getByText(short).waitFor();
    await shot(page, 'wallet-my-wallets-en');

    // Profile shows the connected wallet, with the way to both screens
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page.getByTestId('profile-wallet').textContent()).resolves.toContain(short);
    await shot(page, 'wallet-profile-en');
    await page.getByRole('link', { name: 'Withdraw', exact: true }).click();
    await page.getByLabel('Amount').fill('100');
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await expect(page.getByTestId('confirm-address').textContent()).resolves.toBe(friendly);
    await shot(page, 'wallet-withdraw-confirm-en');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Withdrawal of 100 ${coinSymbol} requested. It is pending.` })
      .waitFor();
    const pending = page.getByTestId('withdrawal').first();
    await expect(pending.textContent()).resolves.toContain('Pending');
    await expect(pending.textContent()).resolves.toContain(`100 ${coinSymbol}`);
    // the balance (not 150.5) once the coins are read again after the request (the history above may arrive first)
    await page.getByText(`50.5 ${coinSymbol}`, { exact: true }).first().waitFor();
    expect(await WithdrawalModel.countDocuments({ status: 'pending', address: friendly })).toBe(1);
    await shot(page, 'wallet-withdraw-en');

    // the same screens in Persian, right-to-left
    await page.evaluate(() => localStorage.setItem('locale', 'fa'));
    await page.reload();
    await page.getByRole('heading', { name: 'برداشت' }).waitFor();
    await page.getByTestId('withdrawal').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shot(page, 'wallet-withdraw-fa');
    await page.goto(launch(telegramIds.first, '/profile/my-wallets'));
    await page.getByTestId('linked-wallet').waitFor();
    await shot(page, 'wallet-my-wallets-fa');
    await openConnectModal(page, 'اتصال کیف پول');
    await shot(page, 'wallet-connect-modal-fa');
    await closeConnectModal(page);
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.close();
  });

  it('refuses a second player connecting the same wallet, in words, and links nothing', async () => {
    const page = await product.openPage();
    await page.goto(launch(telegramIds.second, '/profile/my-wallets'));
    await connectInjectedWallet(page);
    await page.getByRole('alert').filter({ hasText: 'This wallet is linked to another account.' }).waitFor();
    await shot(page, 'wallet-refused-taken-en');
    await expect(page.getByTestId('linked-wallet').count()).resolves.toBe(0);
    const links = await WalletLinkModel.find({ address: wallet.address.toRawString() }).lean();
    expect(links).toHaveLength(1);
    await page.close();
  });

  it('raised no script errors', () => {
    expect(product.pageErrors).toEqual([]);
  });
});
