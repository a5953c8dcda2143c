import { screen, within } from '@testing-library/react';
import type { Books } from '@gift/server';
import { renderScreen } from '../../../test/renderScreen';

const house = (balances: Record<string, string>) =>
  Object.entries(balances).map(([account, balance]) => ({
    account,
    group: account.startsWith('rewards') || account === 'gifts' || account === 'staking:profit' ? 'created' : 'held',
    balance,
  })) as Books['coins'][number]['house'];

/** TON balances and its hot wallet covers what is owed; GIFT is off by 1.5 and its hot wallet is not known. */
const BOOKS: Books = {
  asOf: '2026-11-27T10:00:00.000Z',
  rolledUpTo: '2026-11-26',
  coins: [
    {
      coin: { id: 'c'.repeat(24), symbol: 'TON' },
      players: '12345.95',
      house: house({
        'rewards:mission': '-10000',
        'rewards:referral': '-2.5',
        'rewards:streak': '-1',
        'rewards:league': '-7',
        'rewards:mining': '-2345.75',
        'staking:profit': '-0.2',
        gifts: '-3',
        clawbacks: '1',
        'stakes:held': '4',
        'withdrawals:in-flight': '1.5',
        'paid:chain': '0',
      }),
      trialBalance: '0',
      inFlight: 2,
      hotWallet: { holdings: '1.500000001', owed: '1.5', solvent: true },
    },
    {
      coin: { id: 'd'.repeat(24), symbol: 'GIFT' },
      players: '1.5',
      house: house({ 'rewards:mission': '0', 'withdrawals:in-flight': '0' }),
      trialBalance: '1.5',
      inFlight: 0,
      hotWallet: { holdings: null, owed: '0', solvent: null, reason: 'chainUnavailable' },
    },
  ],
};

const amountOf = (row: HTMLElement) => row.querySelectorAll('td')[1]!.textContent;

it('shows per coin what players hold, what each source created (as a positive amount), where the rest sits, and the balance', async () => {
  renderScreen('/admin/books', { routes: { 'GET /books': BOOKS } });
  const ton = await screen.findByTestId('books-coin-TON');
  expect(amountOf(within(ton).getByTestId('books-players'))).toBe('12,345.95');
  expect(amountOf(within(ton).getByTestId('books-rewards:mission'))).toBe('10,000');
  expect(within(ton).getByTestId('books-rewards:mining').textContent).toBe('Mining2,345.75');
  expect(within(ton).getByTestId('books-clawbacks').textContent).toBe('Taken back (claw-backs)1');
  // the leagues' prizes are a source in words, not an unknown account
  expect(within(ton).getByTestId('books-rewards:league').textContent).toBe('League prizes7');
  expect(within(ton).queryByText(/Unknown account/)).toBeNull();
  expect(amountOf(within(ton).getByTestId('books-paid:chain'))).toBe('0');
  expect(within(ton).getByTestId('books-trial-TON').textContent).toBe('Trial balance: Balanced');
  expect(screen.getByTestId('books-as-of').textContent).toContain('days up to Nov 26, 2026 (UTC) read from their daily totals');
  expect(within(ton).getByText('2 operations recorded and not yet posted (the sweep finishes them)')).toBeTruthy();
  expect(within(ton).getByTestId('books-hot-wallet-TON').textContent).toContain('Covers what is owed');
  expect(within(ton).getByTestId('books-hot-wallet-TON').textContent).toContain('1.500000001');

  const gift = screen.getByTestId('books-coin-GIFT');
  expect(within(gift).getByTestId('books-trial-GIFT').textContent).toBe('Trial balance: Off by 1.5');
  expect(within(gift).getByTestId('books-hot-wallet-GIFT').textContent).toContain('Not known');
  expect(within(gift).getByText('The chain did not answer: the holdings are not known.')).toBeTruthy();
  expect(within(gift).queryByText(/operations recorded/)).toBeNull();
});

it('writes the books in Persian, with Persian digits and the house accounts in words', async () => {
  renderScreen('/admin/books', { routes: { 'GET /books': BOOKS }, locale: 'fa' });
  const ton = await screen.findByTestId('books-coin-TON');
  expect(within(ton).getByTestId('books-rewards:mining').textContent).toBe('استخراج۲٬۳۴۵٫۷۵');
  expect(within(ton).getByTestId('books-trial-TON').textContent).toBe('تراز آزمایشی: تراز است');
  expect(within(screen.getByTestId('books-coin-GIFT')).getByTestId('books-trial-GIFT').textContent).toBe('تراز آزمایشی: اختلاف ۱٫۵');
  expect(screen.getByTestId('books-coin-TON').textContent).not.toMatch(/[0-9]/);
  expect(screen.getByTestId('books-as-of').textContent).toContain('روزها تا ۵ آذر ۱۴۰۵');
});
