import mongoose from 'mongoose';
import { createApp } from '../../app';
import { booksOfDatabase, verifyBooks } from '../../db/ledgerVerify';
import { createCoin } from '../../../test/factories';
import { bookOperation, seedBooks } from '../../../test/books';
import { silentLogger, testEnv } from '../../../test/helpers';
import { operatorConsole } from '../../../test/operators';
import { BooksDayModel } from './booksDay.model';
import { rollUpBooks } from './books.service';
import { OperationModel } from './operation.model';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const api = operatorConsole(app, ['withdraws:read']);

// each test rolls up from the first posted operation: it starts from empty books
beforeEach(() =>
  Promise.all(
    ['operations', 'ledgerentries', 'balances', 'booksdays'].map((name) => mongoose.connection.db!.collection(name).deleteMany({})),
  ),
);

/** The books as the console reads them, without the moment they were read. */
async function books() {
  const res = await api.get('/books');
  expect(res.status).toBe(200);
  const { asOf: _asOf, ...figures } = res.body as { asOf: string; rolledUpTo: string | null };
  return figures;
}

/** A seeded set of books, every posted operation dated on 10 January 2026 at noon (UTC). */
async function seedOnTenthOfJanuary() {
  const coin = await createCoin({ symbol: 'ROLL' });
  const seeded = await seedBooks(coin._id);
  await OperationModel.updateMany({ postedAt: { $ne: null } }, { $set: { postedAt: new Date('2026-01-10T12:00:00Z') } });
  return { coin, seeded };
}

describe("the books' daily roll-up", () => {
  it('sums each closed day once, and the Books read the same before and after, with later operations added live', async () => {
    const { coin, seeded } = await seedOnTenthOfJanuary();
    const before = await books();
    expect(before.rolledUpTo).toBeNull();

    // from the first posted day to the last one closed for 10 minutes: the 10th (operations) to the 13th (none)
    expect(await rollUpBooks(new Date('2026-01-14T00:30:00Z'))).toBe(4);
    const days = await BooksDayModel.find({}).sort({ day: 1 }).lean();
    expect(days.map((day) => [day.day, day.operations])).toEqual([
      ['2026-01-10', 11],
      ['2026-01-11', 0],
      ['2026-01-12', 0],
      ['2026-01-13', 0],
    ]);
    expect(await books()).toEqual({ ...before, rolledUpTo: '2026-01-13' });
    // a second pass has nothing left to do
    expect(await rollUpBooks(new Date('2026-01-14T00:30:00Z'))).toBe(0);

    // an operation posted since, and the one a crash left recorded, are read live beside the rolled-up days
    await bookOperation('later', 'gift', coin._id, [
      { user: seeded.players.ana, amount: '2' },
      { account: 'gifts', amount: '-2' },
    ]);
    const after = await books();
    const row = (figures: typeof before, account: string) =>
      (figures as unknown as { coins: Array<{ house: Array<{ account: string; balance: string }> }> }).coins[0]!.house.find(
        (line) => line.account === account,
      )?.balance;
    expect(row(after, 'gifts')).toBe('-5');
    expect(row(after, 'rewards:mission')).toBe(seeded.house['rewards:mission']);
    expect((after as unknown as { coins: Array<{ trialBalance: string }> }).coins[0]!.trialBalance).toBe('-7');
  });

  it('waits 10 minutes after a day closes, and two passes at once write each day once with the same sums', async () => {
    await seedOnTenthOfJanuary();
    // five minutes into the 12th: the 10th is rolled up, the 11th not yet (it closed five minutes ago)
    expect(await rollUpBooks(new Date('2026-01-12T00:05:00Z'))).toBe(1);

    const now = new Date('2026-01-20T00:30:00Z');
    const passes = await Promise.all([rollUpBooks(now), rollUpBooks(now)]);
    expect(passes.every((rolled) => rolled <= 9)).toBe(true);
    const days = await BooksDayModel.find({}).sort({ day: 1 }).lean();
    expect(days.map((day) => day.day)).toEqual(
      ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19'].map((date) => `2026-01-${date}`),
    );
    expect(verifyBooks(await booksOfDatabase(mongoose.connection)).problems).toEqual([]);
  });

  it('reads a closed day from its roll-up: ledger:verify names the day and account an operation was changed under', async () => {
    const { coin } = await seedOnTenthOfJanuary();
    await rollUpBooks(new Date('2026-01-11T00:30:00Z'));
    const before = await books();

    // planted after the roll-up: the gift's house posting rewritten from -3 to -4 in the database
    // (postings: the player's, then the house's)
    await OperationModel.updateOne({ key: 'seed:gift' }, { $set: { 'postings.1.amount': -4_000_000 } });
    // the Books do not read that day's operations again
    expect(await books()).toEqual(before);
    expect(verifyBooks(await booksOfDatabase(mongoose.connection)).problems).toContain(
      `the books' roll-up of 2026-01-10: gifts in coin ${coin.id} is -3000000 micro-units, that day's operations add up to -4000000`,
    );
  });
});
