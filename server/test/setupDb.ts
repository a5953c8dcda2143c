import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import { withDatabaseName } from '../src/db/connect';

// Each test file connects to a database of its own on the shared server, and drops it at the end.
beforeAll(async () => {
  const base = process.env.TEST_MONGO_URL;
  if (!base) throw new Error('TEST_MONGO_URL is not set: the jest global setup did not start a database');
  await mongoose.connect(withDatabaseName(base, `test_${randomBytes(6).toString('hex')}`));
  await mongoose.connection.syncIndexes();
});

afterAll(async () => {
  await mongoose.connection.dropDatabase().catch(() => undefined);
  await mongoose.disconnect();
});
