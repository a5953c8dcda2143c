// One embedded database for the whole jest run (the same launcher `npm start` uses); each test file gets its own database name.
import { startEmbeddedMongo } from '../src/db/embeddedMongo.mjs';

export default async function globalSetup() {
  if (process.env.TEST_MONGO_URL) return;
  const db = await startEmbeddedMongo();
  globalThis.__EMBEDDED_MONGO__ = db;
  process.env.TEST_MONGO_URL = db.uri;
  process.env.TEST_MONGO_KIND = db.kind;
  console.log(`\n[tests] database: ${db.kind} at ${db.uri}`);
  if (db.kind !== 'mongod')
    console.log(
      '[tests] no real MongoDB here: the suite runs on CongoDB, which enforces no unique index but the one on _id, so the duplicate-key (E11000) paths of other unique indexes are not exercised (those keyed by _id are). Set MONGOMS_SYSTEM_BINARY to a mongod to run it on a replica set (.github/workflows/ci.yml does).',
    );
}
