// `npm run crash-test [-- --budget <seconds>] [--mutation <name>]`: the crash test against a database in a process of
// its own (the embedded one, as `npm start` runs it), printing what it found; exits 1 unless every count is zero.
// A mutation run plants a known bug (server/src/lib/mutations.ts) and exits 1 unless some count shows it.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';
import { MUTATIONS } from '../src/lib/mutations';
import { formatReport, runCrashTest } from '../test/crashTest';

const { values } = parseArgs({
  options: { budget: { type: 'string', default: '60' }, players: { type: 'string', default: '12' }, mutation: { type: 'string' } },
});
const budgetSeconds = Number(values.budget);
const players = Number(values.players);
const mutation = values.mutation;
if (!(budgetSeconds > 0) || !(players >= 6) || (mutation !== undefined && !(MUTATIONS as readonly string[]).includes(mutation)))
  throw new Error(`usage: npm run crash-test -- --budget <seconds> --players <at least 6> [--mutation <${MUTATIONS.join('|')}>]`);

async function main() {
  const database = fork(path.join(__dirname, '../bench/database.mjs'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { uri } = await new Promise<{ uri: string }>((resolve) =>
    database.once('message', (message) => resolve(message as { uri: string })),
  );
  const mongoUrl = withDatabaseName(uri, `crash_${randomBytes(4).toString('hex')}`);
  await mongoose.connect(mongoUrl);
  await mongoose.connection.syncIndexes();
  let failed: boolean;
  try {
    const report = await runCrashTest({ mongoUrl, budgetSeconds, players, mutation, log: (line) => console.log(line) });
    console.log(`\n${formatReport(report)}`);
    const caughtBy = Object.entries(report.findings.counts).filter(([, count]) => count !== 0);
    if (mutation)
      console.log(`\nmutation ${mutation}: ${caughtBy.length ? `caught by ${caughtBy.map(([name]) => name).join(', ')}` : 'NOT caught'}`);
    failed = mutation ? !caughtBy.length : caughtBy.length > 0;
  } finally {
    await mongoose.disconnect();
    database.disconnect();
  }
  process.exit(failed ? 1 : 0);
}

void main();
