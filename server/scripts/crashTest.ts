// `npm run crash-test [-- --budget <seconds>]`: the crash test against a database in a process of its own
// (the embedded one, as `npm start` runs it), printing what it found; exits 1 unless every count is zero.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';
import { formatReport, runCrashTest } from '../test/crashTest';

const { values } = parseArgs({ options: { budget: { type: 'string', default: '60' }, players: { type: 'string', default: '12' } } });
const budgetSeconds = Number(values.budget);
const players = Number(values.players);
if (!(budgetSeconds > 0) || !(players >= 6)) throw new Error('usage: npm run crash-test -- --budget <seconds> --players <at least 6>');

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
    const report = await runCrashTest({ mongoUrl, budgetSeconds, players, log: (line) => console.log(line) });
    console.log(`\n${formatReport(report)}`);
    failed = Object.values(report.findings.counts).some((count) => count !== 0);
  } finally {
    await mongoose.disconnect();
    database.disconnect();
  }
  process.exit(failed ? 1 : 0);
}

void main();
