import { createApp } from '../../app';
import { createCoin } from '../../../test/factories';
import { bookOperation, seedBooks } from '../../../test/books';
import { silentLogger, testEnv } from '../../../test/helpers';
import { consoleApi, createOperator, operatorConsole } from '../../../test/operators';
import { BalanceModel } from './ledger.models';
import { configureBooksHotWallet, type HotWalletRead } from './books.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const api = operatorConsole(app, ['withdraws:read']);

interface CoinBooks {
  coin: { id: string; symbol: string };
  players: string;
  house: Array<{ account: string; group: string; balance: string }>;
  trialBalance: string;
  inFlight: number;
  hotWallet: { holdings: string | null; owed: string; solvent: boolean | null; reason?: string };
}
async function booksOf(coin: string): Promise<CoinBooks> {
  const res = await api.get('/books').query({ coin });
  expect(res.status).toBe(200);
  expect(res.body.coins).toHaveLength(1);
  return res.body.coins[0];
}
const wallet = (read: Partial<HotWalletRead>) => () =>
  Promise.resolve({ automated: true, balances: new Map<string, string | null>(), fresh: true, problem: '', ...read });

describe('GET /api/admin/books', () => {
  it('reads back what was seeded: the players, each house account by group, a trial balance off by what is in flight', async () => {
    const coin = await createCoin({ symbol: 'BOOK' });
    const seeded = await seedBooks(coin._id);

    const books = await booksOf(coin.id);
    expect(books.coin).toEqual({ id: coin.id, symbol: 'BOOK' });
    expect(books.players).toBe(seeded.holds);
    expect(Object.fromEntries(books.house.map((row) => [row.account, row.balance]))).toEqual(seeded.house);
    expect(books.house.find((row) => row.account === 'staking:profit')?.group).toBe('created');
    expect(books.house.find((row) => row.account === 'withdrawals:in-flight')?.group).toBe('in flight');
    // the 7 recorded for ben and not on his balance yet: what a crash left, until the sweep finishes it
    expect(books.trialBalance).toBe('-7');
    expect(books.inFlight).toBe(1);
    // no hot wallet configured in tests: payouts are manual, nothing to read
    expect(books.hotWallet).toEqual({ holdings: null, owed: '1.5', solvent: null, reason: 'noHotWallet' });
    // every coin by default, with a timestamp
    const all = await api.get('/books');
    expect(all.body.coins.map((row: CoinBooks) => row.coin.symbol)).toContain('BOOK');
    expect(Date.parse(all.body.asOf)).not.toBeNaN();
  });

  it('shows a non-zero trial balance when an operation does not balance, or a balance moved outside the books', async () => {
    const coin = await createCoin({ symbol: 'SKEW' });
    const { players } = await seedBooks(coin._id);
    // planted: the player is credited 5, the house gives only 4
    await bookOperation('planted', 'mission', coin._id, [
      { user: players.ana, amount: '5' },
      { account: 'rewards:mission', amount: '-4' },
    ]);
    expect((await booksOf(coin.id)).trialBalance).toBe('-6');
    // and a balance raised by hand, with no operation behind it
    await BalanceModel.updateOne({ user: players.ben, coin: coin._id }, { $inc: { amount: 250_000 } });
    expect(await booksOf(coin.id)).toMatchObject({ players: '18.2', trialBalance: '-5.75' });
  });

  it('sets the hot wallet beside what is owed: solvent, short, last known, or unread with the reason', async () => {
    const coin = await createCoin({ symbol: 'HOT' });
    await seedBooks(coin._id);
    try {
      configureBooksHotWallet(wallet({ balances: new Map([[coin.id, '1.500000000']]) }));
      expect((await booksOf(coin.id)).hotWallet).toEqual({ holdings: '1.500000000', owed: '1.5', solvent: true });
      // one nanoton short of what is owed
      configureBooksHotWallet(wallet({ balances: new Map([[coin.id, '1.499999999']]), fresh: false, problem: 'slow' }));
      expect((await booksOf(coin.id)).hotWallet).toEqual({ holdings: '1.499999999', owed: '1.5', solvent: false, reason: 'lastKnown' });
      configureBooksHotWallet(wallet({ problem: 'the TON API is unavailable' }));
      expect((await booksOf(coin.id)).hotWallet).toEqual({ holdings: null, owed: '1.5', solvent: null, reason: 'chainUnavailable' });
      configureBooksHotWallet(wallet({ balances: new Map([['another coin', '3']]) }));
      expect((await booksOf(coin.id)).hotWallet).toMatchObject({ holdings: null, reason: 'notReadable' });
    } finally {
      configureBooksHotWallet(wallet({ automated: false }));
    }
  });

  it('refuses an operator without the withdrawals permission, and a malformed coin, with a 4xx', async () => {
    const reader = await createOperator(['users:read']);
    expect((await consoleApi(app, reader.token).get('/books')).status).toBe(403);
    const bad = await api.get('/books').query({ coin: 'not-an-id' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ coin: 'Invalid id' });
  });
});
