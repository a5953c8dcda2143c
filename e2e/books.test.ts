// Issue 33 item 5 in a real Chromium, in English and in Persian, at 1280×800 and 390×844: an operator opens Books from the
// menu and reads per coin what players hold, what each source created, where the rest sits, the trial balance (green when it
// holds, red with the difference when an operation does not add up) and the hot wallet's holdings beside what is owed.
import type { Page } from 'playwright-core';
import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from '../server/src/lib/ton/hotWallet';
import type { TonChain } from '../server/src/lib/ton/tonChain';
import { configurePayouts } from '../server/src/modules/withdrawals/payouts.service';
import { bookOperation, seedBooks } from '../server/test/books';
import { createCoin, randomAddress } from '../server/test/factories';
import { useProduct } from './fixture';
import { DESKTOP, fits, PHONE, shot } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'bookkeeper';
const product = useProduct({ operators: [{ username: OPERATOR, permissions: ['withdraws:read'] }], before: seed });

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/**
 * TON's books hold, and the hot wallet (a chain stand-in holding 40 TON) covers the 1.5 owed; GIFT's hold an operation
 * whose house side is 1 short, and its jetton cannot be read on this chain.
 */
async function seed() {
  const ton = await createCoin({ symbol: 'TON', network: 'ton' });
  await seedBooks(ton._id, 'ton', { inFlight: false });
  const gift = await createCoin({ symbol: 'GIFT', network: 'jetton', jettonMaster: randomAddress().toString() });
  const { players } = await seedBooks(gift._id, 'gift', { inFlight: false });
  await bookOperation('gift:unbalanced', 'mission', gift._id, [
    { user: players.ben, amount: '6' },
    { account: 'rewards:mission', amount: '-5' },
  ]);
  const chain = {
    account: () =>
      Promise.resolve({ state: 'active', balance: 40_000_000_000n, chainTime: Math.floor(Date.now() / 1000), lastTransaction: null }),
    jettonWallet: () => Promise.reject(new Error('no such jetton on this chain')),
  };
  configurePayouts({
    chain: chain as unknown as TonChain,
    hotWallet: await hotWalletFromMnemonic(DEMO_PAYOUT_MNEMONIC),
    network: 'mainnet',
  });
}

const WORDS = {
  en: {
    menu: 'Books',
    players: 'Players hold12.95',
    missions: 'Missions10',
    balanced: 'Trial balance: Balanced',
    off: 'Trial balance: Off by 1',
    solvent: 'Covers what is owed',
    unread: 'could not be read on chain',
  },
  fa: {
    menu: 'دفاتر',
    players: 'موجودی بازیکنان۱۲٫۹۵',
    missions: 'مأموریت‌ها۱۰',
    balanced: 'تراز آزمایشی: تراز است',
    off: 'تراز آزمایشی: اختلاف ۱',
    solvent: 'بدهی را پوشش می‌دهد',
    unread: 'روی زنجیره خوانده نشد',
  },
} as const;

/** What the operator reads on Books, then the page at both sizes, looked at; on a phone it never scrolls sideways. */
async function readBooks(page: Page, language: keyof typeof WORDS) {
  const words = WORDS[language];
  const ton = page.getByTestId('books-coin-TON');
  await ton.waitFor();
  await expect(ton.getByTestId('books-players').textContent()).resolves.toBe(words.players);
  await expect(ton.getByTestId('books-rewards:mission').textContent()).resolves.toBe(words.missions);
  await expect(ton.getByTestId('books-trial-TON').textContent()).resolves.toBe(words.balanced);
  await ton.getByText(words.solvent).waitFor();
  const gift = page.getByTestId('books-coin-GIFT');
  await expect(gift.getByTestId('books-trial-GIFT').textContent()).resolves.toBe(words.off);
  await gift.getByText(words.unread, { exact: false }).waitFor();
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await ton.getByTestId('books-trial-TON').scrollIntoViewIfNeeded();
    if (size === 'phone') await fits(page);
    await shot(page, `console-books-${language}-${size}`);
  }
}

it.each(['en', 'fa'] as const)('an operator opens Books from the menu and reads each coin in %s', async (language) => {
  const page = await product.signInOperator(OPERATOR, { signOutFirst: true, persian: language === 'fa' });
  await page.getByRole('menuitem', { name: WORDS[language].menu }).click();
  await page.waitForURL(/\/admin\/books$/);
  await readBooks(page, language);
  await page.close();
});
