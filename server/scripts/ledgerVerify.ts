// `npm run ledger:verify [-- <file>]`: checks the books of a backup or data file when given, else of MONGO_URL's database,
// else of the embedded database's data file: every operation's postings add up to zero per coin, every posted operation's
// player postings have their ledger line and every posted line its operation, every balance is the sum of its posted
// ledger entries, none is negative, no key posted twice. Exits 1 naming the first culprit when they do not hold. See
// docs/money.md.
import path from 'node:path';
import mongoose from 'mongoose';
import { connectionOptions } from '../src/db/connect';
import { booksOfDatabase, booksOfFile, verifyBooks, type Books } from '../src/db/ledgerVerify';
import { EnvError, loadEnv } from '../src/env';

async function main() {
  const given = process.argv[2];
  const env = loadEnv({ ...process.env, NODE_ENV: 'development' });
  let books: Books;
  let where: string;
  if (given) {
    // npm runs this in server/: a relative path means the folder the command was typed in
    where = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
    books = booksOfFile(where);
  } else if (env.MONGO_URL) {
    await mongoose.connect(env.MONGO_URL, connectionOptions(env.MONGO_URL));
    where = `MongoDB database ${mongoose.connection.name}`;
    try {
      books = await booksOfDatabase(mongoose.connection);
    } finally {
      await mongoose.disconnect();
    }
  } else {
    where = env.EMBEDDED_DATA_FILE;
    books = booksOfFile(where);
  }
  const report = verifyBooks(books);
  const pending = report.pending ? `, ${report.pending} pending (the recovery sweep finishes them)` : '';
  const operations =
    report.operations === null
      ? '; no operations recorded (books from before the double-entry ledger): the operations were not checked'
      : `, ${report.operations} operations${report.inFlight ? ` (${report.inFlight} in flight: the engine's sweep finishes them)` : ''}`;
  if (!report.problems.length) {
    console.log(`The books of ${where} hold: ${report.balances} balances, ${report.entries} entries${pending}${operations}`);
    return;
  }
  console.error(`The books of ${where} do not hold (${report.problems.length} problems), first ${report.problems[0]}:`);
  for (const problem of report.problems.slice(0, 50)) console.error(`- ${problem}`);
  process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : `ledger:verify failed: ${(error as Error).message}`);
  process.exit(1);
});
