// The embedded database, shared by `npm start` (no MONGO_URL) and the jest global setup.
// A real mongod (mongodb-memory-server) when a binary is available, else the CongoDB wire server.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';

function findMongod() {
  if (process.env.MONGOMS_SYSTEM_BINARY && existsSync(process.env.MONGOMS_SYSTEM_BINARY)) return process.env.MONGOMS_SYSTEM_BINARY;
  try {
    return execFileSync('sh', ['-c', 'command -v mongod'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Reads a data file written by `saveData` into CongoDB's memory storage, before the server takes a connection.
 * Extended JSON keeps every type the wire gave it: ObjectIds, dates, binary (GridFS chunks); numbers stay plain numbers, as
 * the server holds them (a canonical $numberInt would come back as a wrapper that $inc cannot add to).
 */
function loadData(storage, bson, file) {
  const saved = bson.EJSON.parse(readFileSync(file, 'utf8'));
  for (const [dbName, collections] of Object.entries(saved.databases)) {
    const database = new Map();
    storage.databases.set(dbName, database);
    for (const [collName, docs] of Object.entries(collections))
      database.set(collName, new Map(docs.map((doc) => [doc._id.toHexString(), doc])));
  }
  for (const [dbName, collections] of Object.entries(saved.databases)) {
    // a restored backup carries no indexes: every collection gets its _id index, the product syncs the rest at start
    const indexes = new Map(Object.entries(saved.indexes?.[dbName] ?? {}));
    for (const collName of Object.keys(collections))
      if (!indexes.has(collName)) indexes.set(collName, [{ name: '_id_', key: { _id: 1 }, unique: true }]);
    storage.indexes.set(dbName, indexes);
  }
  return Object.values(saved.databases).reduce((sum, collections) => sum + Object.values(collections).flat().length, 0);
}

/**
 * Writes every collection to `file` at one moment: the copy is taken synchronously (no write can land halfway
 * through it, so it is a state a crash could have left), then written beside the file and renamed over it, so a
 * kill during the write leaves the previous copy whole. Returns the text written, to skip unchanged rounds.
 */
function saveData(storage, bson, file, previous) {
  const data = { databases: {}, indexes: {} };
  for (const [dbName, collections] of storage.databases) {
    data.databases[dbName] = {};
    for (const [collName, docs] of collections) data.databases[dbName][collName] = [...docs.values()];
  }
  for (const [dbName, collections] of storage.indexes) data.indexes[dbName] = Object.fromEntries(collections);
  const text = bson.EJSON.stringify(data);
  if (text === previous) return text;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.writing`, text);
  renameSync(`${file}.writing`, file);
  return text;
}

/**
 * Starts an in-process database. Returns { uri, kind, stop, restored }.
 * kind is 'mongod' (real MongoDB, single-node replica set) or 'congodb' (MongoDB-compatible wire server).
 * With `dataFile`, CongoDB's data is read from that file at start (when it exists), written to it every
 * `saveEveryMs` when it changed, and once more at a clean stop; `restored` counts the documents read back.
 */
export async function startEmbeddedMongo({ port, dataFile, saveEveryMs = 1_000 } = {}) {
  const mongod = findMongod();
  if (mongod && !dataFile) {
    const { MongoMemoryReplSet } = await import('mongodb-memory-server-core');
    const replSet = await MongoMemoryReplSet.create({ binary: { systemBinary: mongod }, replSet: { count: 1 } });
    return { uri: replSet.getUri(), kind: 'mongod', stop: () => replSet.stop(), restored: null };
  }
  const { CongoServer } = await import('@push.rocks/smartmongo/dist_ts/congodb/index.js');
  const { bson } = await import('@push.rocks/smartmongo/dist_ts/congodb/congodb.plugins.js');
  const chosenPort = port || (await freePort());
  const server = new CongoServer({ port: chosenPort, host: '127.0.0.1' });
  const storage = server.getStorage();
  const restored = dataFile && existsSync(dataFile) ? loadData(storage, bson, dataFile) : null;
  await server.start();
  let written = '';
  const save = () => (written = saveData(storage, bson, dataFile, written));
  const saver = dataFile ? setInterval(save, saveEveryMs) : null;
  saver?.unref();
  const stop = async () => {
    if (saver) {
      clearInterval(saver);
      save();
    }
    await server.stop();
  };
  // CongoDB does not stream heartbeats (the driver's default 'stream' monitoring breaks the pool)
  return { uri: `mongodb://127.0.0.1:${chosenPort}/?serverMonitoringMode=poll`, kind: 'congodb', stop, restored };
}
