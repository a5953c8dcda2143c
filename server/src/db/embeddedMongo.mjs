// The embedded database, shared by `npm start` (no MONGO_URL) and the jest global setup.
// A real mongod (mongodb-memory-server) when a binary is available, else the CongoDB wire server.
import { existsSync } from 'node:fs';
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
 * Starts an in-process database. Returns { uri, kind, stop }.
 * kind is 'mongod' (real MongoDB, single-node replica set) or 'congodb' (MongoDB-compatible wire server).
 */
export async function startEmbeddedMongo({ port } = {}) {
  const mongod = findMongod();
  if (mongod) {
    const { MongoMemoryReplSet } = await import('mongodb-memory-server-core');
    const replSet = await MongoMemoryReplSet.create({ binary: { systemBinary: mongod }, replSet: { count: 1 } });
    return { uri: replSet.getUri(), kind: 'mongod', stop: () => replSet.stop() };
  }
  const { CongoServer } = await import('@push.rocks/smartmongo/dist_ts/congodb/index.js');
  const chosenPort = port || (await freePort());
  const server = new CongoServer({ port: chosenPort, host: '127.0.0.1' });
  await server.start();
  // CongoDB does not stream heartbeats (the driver's default 'stream' monitoring breaks the pool)
  return { uri: `mongodb://127.0.0.1:${chosenPort}/?serverMonitoringMode=poll`, kind: 'congodb', stop: () => server.stop() };
}
