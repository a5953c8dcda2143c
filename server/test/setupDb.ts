import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { withDatabaseName } from '../src/db/connect';
import { registerMoneyKinds } from '../src/moneyKinds';
import { recordQueries, unservedQueries } from './queryPlans';

// the money kinds, as the server's composition root registers them at start
registerMoneyKinds();

// Each test file connects to a database of its own on the shared server, and drops it at the end.
beforeAll(async () => {
  const base = process.env.TEST_MONGO_URL;
  if (!base) throw new Error('TEST_MONGO_URL is not set: the jest global setup did not start a database');
  await mongoose.connect(withDatabaseName(base, `test_${randomBytes(6).toString('hex')}`));
  await mongoose.connection.syncIndexes();
  recordQueries();
});

afterAll(async () => {
  await mongoose.connection.dropDatabase().catch(() => undefined);
  await mongoose.disconnect();
  // the index test: every query the product sent during this file is served by a declared index
  const unserved = unservedQueries();
  if (process.env.QUERY_PLANS_SURVEY) {
    const { appendFileSync } = await import('node:fs');
    appendFileSync(process.env.QUERY_PLANS_SURVEY, unserved.map((line) => `${line}\n`).join(''));
  } else if (unserved.length) throw new Error(`Queries no declared index serves:\n${unserved.join('\n')}`);
});
