import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { toMicros } from '@gift/shared';
import { createCoin, createPlayer } from '../../test/factories';
import { postEntry } from '../modules/ledger/ledger.service';
import { backupMongo, restoreMongo } from './backup';
import { withDatabaseName } from './connect';
import { booksOfDatabase, booksOfFile, verifyBooks } from './ledgerVerify';

const SERVER_DIR = path.resolve(__dirname, '../..');
const folder = mkdtempSync(path.join(tmpdir(), 'gift-backup-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every document of every collection, in one comparable text (ids, dates and numbers as they are stored). */
async function contents(db: mongoose.mongo.Db) {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
  const all: Record<string, unknown[]> = {};
  for (const name of names) {
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    if (docs.length) all[name] = docs;
  }
  return mongoose.mongo.BSON.EJSON.stringify(all, { relaxed: false });
}

/** Each player's balance per coin, and the sum of their posted ledger entries per coin: the books a restore must keep. */
async function books(db: mongoose.mongo.Db) {
  const balances = await db.collection('balances').find({}).toArray();
  const entries = await db.collection('ledgerentries').find({ state: 'posted' }).toArray();
  const sums = new Map<string, bigint>();
  for (const entry of entries) {
    const key = `${String(entry.user)}/${String(entry.coin)}`;
    sums.set(key, (sums.get(key) ?? 0n) + BigInt(entry.amount as number));
  }
  return {
    balances: balances.map((b) => `${String(b.user)}/${String(b.coin)} ${String(b.amount)}`).sort(),
    entrySums: [...sums].map(([key, sum]) => `${key} ${sum}`).sort(),
  };
}

async function someMoney() {
  const coin = await createCoin();
  const players = await Promise.all([createPlayer(), createPlayer(), createPlayer()]);
  for (const [i, player] of players.entries())
    for (let n = 0; n < 5; n++)
      await postEntry({
        userId: String(player._id),
        coinId: String(coin._id),
        amount: toMicros(`${i + 1}.25`),
        reason: 'mission',
        refType: 'Test',
        refId: `${i}:${n}`,
        idempotencyKey: `backup-test:${i}:${n}`,
      });
  return { coin, players };
}

describe('npm run backup and npm run restore on MongoDB', () => {
  it('restore into an empty database gives the same documents, the same balances and the same ledger', async () => {
    await someMoney();
    const file = path.join(folder, 'mongo.json');
    const taken = await backupMongo(mongoose.connection, file);
    expect(taken.documents).toBeGreaterThan(20);

    const target = await mongoose.createConnection(withDatabaseName(process.env.TEST_MONGO_URL!, `restore_${Date.now()}`)).asPromise();
    try {
      const restored = await restoreMongo(target, file);
      expect(restored).toEqual(taken);
      expect(await contents(target.db!)).toBe(await contents(mongoose.connection.db!));
      const restoredBooks = await books(target.db!);
      expect(restoredBooks).toEqual(await books(mongoose.connection.db!));
      // and the books balance: each balance is the sum of its posted entries
      expect(restoredBooks.balances).toEqual(restoredBooks.entrySums);
      expect(restoredBooks.balances).toHaveLength(3);
      // npm run ledger:verify's check holds on the restored database and on the backup file itself
      expect(verifyBooks(await booksOfDatabase(target)).problems).toEqual([]);
      expect(verifyBooks(booksOfFile(file))).toMatchObject({ balances: 3, problems: [] });
      // and it catches a balance the ledger does not account for
      const one = (await target.db!.collection('balances').findOne({}))!;
      await target.db!.collection('balances').updateOne({ _id: one._id }, { $inc: { amount: 1 } });
      expect(verifyBooks(await booksOfDatabase(target)).problems).toEqual([
        expect.stringMatching(
          new RegExp(
            `^player ${String(one.user)}, coin ${String(one.coin)}: the balance is \\d+ micro-units, its posted entries add up to \\d+$`,
          ),
        ),
      ]);
      await target.db!.collection('balances').updateOne({ _id: one._id }, { $inc: { amount: -1 } });

      // a second restore would mix two databases: refused, nothing written
      const before = await target.db!.collection('ledgerentries').countDocuments();
      await expect(restoreMongo(target, file)).rejects.toThrow(/not empty/);
      expect(await target.db!.collection('ledgerentries').countDocuments()).toBe(before);
    } finally {
      await target.dropDatabase();
      await target.close();
    }
  });
});

/**
 * The embedded database runs in a process of its own here (CongoDB is ESM only, which jest cannot load): it starts
 * on `dataFile`, inserts `insert` documents into balances when given, prints every document, raises the balance of 7 by 3
 * when asked, and stops (writing the file).
 */
function embedded(dataFile: string, insert: unknown[] = [], raise = false) {
  const script = `
    import mongoose from 'mongoose';
    import { startEmbeddedMongo } from './src/db/embeddedMongo.mjs';
    const { EJSON } = mongoose.mongo.BSON;
    const db = await startEmbeddedMongo({ dataFile: process.argv[1] });
    const connection = await mongoose.createConnection(db.uri.replace('/?', '/gift?')).asPromise();
    const insert = EJSON.parse(process.argv[2]);
    if (insert.length) await connection.db.collection('balances').insertMany(insert);
    const docs = await connection.db.collection('balances').find({}).sort({ _id: 1 }).toArray();
    // asked to: a conditional $inc on a restored number, as the ledger applies an entry
    const raised = process.argv[3] ? await connection.db.collection('balances').updateOne({ amount: 7 }, { $inc: { amount: 3 } }) : { modifiedCount: 0 };
    console.log(JSON.stringify({ restored: db.restored, raised: raised.modifiedCount, docs: EJSON.stringify(docs, { relaxed: false }) }));
    await connection.close();
    await db.stop();
  `;
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', script, dataFile, mongoose.mongo.BSON.EJSON.stringify(insert), ...(raise ? ['raise'] : [])],
    {
      cwd: SERVER_DIR,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as { restored: number | null; raised: number; docs: string };
}

/** `npm run backup` / `npm run restore` as an operator types them, on the embedded database's data file. */
function cli(command: 'backup' | 'restore', file: string, dataFile: string) {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', command, file], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH, EMBEDDED_DATA_FILE: dataFile },
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, out };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { code: failed.status, out: failed.stderr };
  }
}

describe('npm run backup and npm run restore on the embedded database', () => {
  it('copies the data file, refuses to restore over data, and restores into a fresh data file that a start reads', () => {
    const dataFile = path.join(folder, 'embedded.json');
    const rows = [
      { _id: new mongoose.Types.ObjectId(), user: new mongoose.Types.ObjectId(), amount: Number(toMicros('12.5')), at: new Date() },
      { _id: new mongoose.Types.ObjectId(), user: new mongoose.Types.ObjectId(), amount: 7, at: new Date() },
    ];
    const original = embedded(dataFile, rows);
    expect(original.restored).toBeNull();

    const file = path.join(folder, 'embedded-backup.json');
    expect(cli('backup', file, dataFile)).toMatchObject({ code: 0, out: expect.stringMatching(/2 documents in 1 collections/) });
    // the live data file holds records: restoring over it is refused, and it is left as it was
    expect(cli('restore', file, dataFile)).toMatchObject({ code: 1, out: expect.stringMatching(/holds 2 records/) });
    expect(embedded(dataFile).docs).toBe(original.docs);

    const restoredFile = path.join(folder, 'restored', 'embedded.json');
    expect(cli('restore', file, restoredFile)).toMatchObject({ code: 0 });
    expect(embedded(restoredFile, [], true)).toEqual({ restored: 2, raised: 1, docs: original.docs });
    expect(embedded(restoredFile).docs).toContain('"$numberInt":"10"');
  });
});
