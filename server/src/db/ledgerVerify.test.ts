import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mongoose from 'mongoose';
import { bookOperation, seedBooks } from '../../test/books';
import { createCoin } from '../../test/factories';
import { booksOfDatabase, verifyBooks, type Books } from './ledgerVerify';

const { EJSON } = mongoose.mongo.BSON;
const folder = mkdtempSync(path.join(tmpdir(), 'ledger-verify-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
// each test reads the whole books: it starts from empty ones
beforeEach(() =>
  Promise.all(['operations', 'ledgerentries', 'balances'].map((name) => mongoose.connection.db!.collection(name).deleteMany({}))),
);

/** `npm run ledger:verify -- <file>` on these books written as a backup: its exit code and what it printed. */
async function verifyScript(books: Books) {
  const file = path.join(folder, `books-${Date.now()}.json`);
  writeFileSync(file, EJSON.stringify({ collections: books }));
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/ledgerVerify.ts', file], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, MONGO_URL: '' },
  });
  return run.then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
  );
}

describe('npm run ledger:verify on the double-entry books', () => {
  it('passes on a clean seeded set; fails naming the operation and coin of a planted unbalanced operation', async () => {
    const coin = await createCoin();
    await seedBooks(coin._id);
    const clean = await booksOfDatabase(mongoose.connection);
    expect(verifyBooks(clean)).toMatchObject({ operations: 12, inFlight: 1, problems: [] });
    expect(await verifyScript(clean)).toEqual({
      code: 0,
      out: expect.stringMatching(/hold: 2 balances, 10 entries, 12 operations \(1 in flight/),
    });

    const { players } = await seedBooks(coin._id, 'second');
    await bookOperation('planted:unbalanced', 'gift', coin._id, [
      { user: players.ana, amount: '5' },
      { account: 'gifts', amount: '-4.999999' },
    ]);
    const planted = await booksOfDatabase(mongoose.connection);
    expect(verifyBooks(planted).problems).toEqual([
      `operation planted:unbalanced: its postings of coin ${coin.id} add up to 1 micro-units, not 0`,
    ]);
    const script = await verifyScript(planted);
    expect(script.code).toBe(1);
    expect(script.out).toContain(`first operation planted:unbalanced: its postings of coin ${coin.id} add up to 1 micro-units`);
  });

  it('fails naming the player and coin of a balance that disagrees with its postings, and a line or posting left alone', async () => {
    const coin = await createCoin();
    const { players } = await seedBooks(coin._id);
    const books = await booksOfDatabase(mongoose.connection);
    const balance = books.balances.find((row) => String(row.user) === String(players.ben))!;
    balance.amount = 4_500_001;
    expect(verifyBooks(books).problems).toEqual([
      `player ${String(players.ben)}, coin ${coin.id}: the balance is 4500001 micro-units, its posted entries add up to 4500000`,
    ]);
    balance.amount = 4_500_000;

    // a posting whose ledger line says another amount: both sides named, the operation first
    const line = books.ledgerentries.find((entry) => entry.idempotencyKey === 'seed:gift')!;
    line.amount = 3_000_001;
    expect(verifyBooks(books).problems.slice(0, 2)).toEqual([
      `operation seed:gift: the posting of 3000000 micro-units to player ${String(players.ben)}, coin ${coin.id} has no ledger line that matches it`,
      `ledger entry seed:gift (player ${String(players.ben)}, coin ${coin.id}) belongs to no posted operation`,
    ]);
  });

  it('checks an operation with several player postings line by line, and says so when a backup has no operations', async () => {
    const coin = await createCoin();
    const [ana, ben] = [new mongoose.Types.ObjectId(), new mongoose.Types.ObjectId()];
    await bookOperation('split', 'gift', coin._id, [
      { user: ana, amount: '1' },
      { user: ben, amount: '2' },
      { account: 'gifts', amount: '-3' },
    ]);
    const books = await booksOfDatabase(mongoose.connection);
    expect(books.ledgerentries.map((entry) => entry.idempotencyKey)).toEqual(['split', 'split#1']);
    expect(verifyBooks(books).problems).toEqual([]);
    const old = { balances: books.balances, ledgerentries: books.ledgerentries, operations: null };
    expect(verifyBooks(old)).toMatchObject({ operations: null, problems: [] });
    expect(await verifyScript(old)).toMatchObject({ code: 0, out: expect.stringMatching(/no operations recorded .*not checked/) });
  });
});
