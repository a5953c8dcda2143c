import { rmSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import mongoose, { type ConnectOptions } from 'mongoose';
import { EnvError, type Env } from '../env';
import { isDatabaseUnavailable } from './mongoErrors';
import type { Logger } from '../lib/logger';
import { databaseDuration } from '../lib/metrics';

/** mongodb://host:port/?opts + name -> mongodb://host:port/name?opts */
export function withDatabaseName(uri: string, name: string): string {
  const [base, query] = uri.split('?');
  return `${base!.replace(/\/$/, '')}/${name}${query ? `?${query}` : ''}`;
}

/**
 * How long a call waits for the database before it is answered 503: to find a server (down, cut off), to open a
 * connection, and for an answer on an open one (hung). The driver retries a failed read or write once (the
 * standard retry); its retries for an overloaded server (MongoDB 9 on Atlas) are off, as each would add another
 * connection attempt to a hung database; the client retries on 503 instead. Any of these may be set in
 * MONGO_URL's query instead (`?socketTimeoutMS=30000`): the query wins.
 */
const DATABASE_OPTIONS = {
  serverSelectionTimeoutMS: 5_000,
  connectTimeoutMS: 2_000,
  socketTimeoutMS: 5_000,
  maxAdaptiveRetries: 0,
} as const;

/**
 * The product's connection options for `uri`: the options above, except those its query names, and no buffering
 * (mongoose would otherwise hold every call for 10 s while it considers itself disconnected).
 */
export function connectionOptions(uri: string): ConnectOptions {
  const named = new Set([...new URLSearchParams(uri.split('?')[1] ?? '').keys()].map((name) => name.toLowerCase()));
  const chosen = Object.entries(DATABASE_OPTIONS).filter(([name]) => !named.has(name.toLowerCase()));
  return { ...Object.fromEntries(chosen), bufferCommands: false, monitorCommands: true };
}

const PING_TIMEOUT_MS = 2_000;

/** The health check's view of the database: a ping answered within 2 s, or why not. */
export async function checkDatabase(): Promise<{ up: true } | { up: false; reason: string }> {
  // pinged even while mongoose counts itself disconnected: the ping makes the driver look for the database at once
  const db = mongoose.connection.db;
  if (!db) return { up: false, reason: 'not connected' };
  const timeout = new AbortController();
  const ping = db
    .admin()
    .command({ ping: 1 })
    .then(() => ({ up: true }) as const)
    .catch((error: unknown) => ({ up: false, reason: `ping failed: ${(error as Error).message}` }) as const);
  const late = delay(PING_TIMEOUT_MS, { up: false, reason: `no answer to a ping within ${PING_TIMEOUT_MS} ms` } as const, {
    signal: timeout.signal,
  });
  try {
    return await Promise.race([ping, late]);
  } finally {
    timeout.abort();
  }
}

/** Start-up waits this long for a database that is not reachable yet (starting beside the app), trying again every few seconds. */
const CONNECT_PATIENCE_MS = 60_000;

export interface Database {
  uri: string;
  /** 'external' (MONGO_URL), 'mongod' or 'congodb' (embedded). */
  kind: 'external' | 'mongod' | 'congodb';
  embedded: boolean;
  /** Where the embedded database keeps its data between runs; null on MongoDB. */
  dataFile: string | null;
  /** Documents the embedded database read back from its data file; null when it started empty. */
  restored: number | null;
  close: () => Promise<void>;
}

/** Connects mongoose to MONGO_URL, or starts the embedded database when it is unset. */
export async function connectDatabase(env: Env, logger: Logger): Promise<Database> {
  let uri = env.MONGO_URL;
  let kind: Database['kind'] = 'external';
  let stopEmbedded: (() => Promise<unknown>) | undefined;
  let dataFile: string | null = null;
  let restored: number | null = null;
  if (!uri) {
    const { startEmbeddedMongo } = await import('./embeddedMongo.mjs');
    if (env.FRESH_DEMO) rmSync(env.EMBEDDED_DATA_FILE, { force: true });
    const embedded = await startEmbeddedMongo({ dataFile: env.EMBEDDED_DATA_FILE }).catch((error: unknown) => {
      // a production install (npm ci --omit=dev) has no embedded database: say what to do instead
      if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (error as { code?: string }).code === 'MODULE_NOT_FOUND')
        throw new EnvError([
          'MONGO_URL: not set, and the embedded database is not installed here (it comes with the development dependencies, `npm install`). Set MONGO_URL to a MongoDB, e.g. mongodb://localhost:27017/gift',
        ]);
      throw error;
    });
    uri = withDatabaseName(embedded.uri, 'gift');
    kind = embedded.kind;
    stopEmbedded = embedded.stop;
    dataFile = embedded.kind === 'congodb' ? env.EMBEDDED_DATA_FILE : null;
    restored = embedded.restored;
  }
  mongoose.set('strictQuery', true);
  const giveUpAt = Date.now() + CONNECT_PATIENCE_MS;
  for (;;) {
    try {
      await mongoose.connect(uri, connectionOptions(uri));
      break;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > giveUpAt) throw error;
      logger.warn({ err: error }, 'database not reachable yet, trying again');
      await delay(1_000);
    }
  }
  // every command's time, for the metrics (by command name only)
  mongoose.connection
    .getClient()
    .on('commandSucceeded', (event) => databaseDuration.observe({ command: event.commandName, outcome: 'ok' }, event.duration / 1000));
  mongoose.connection
    .getClient()
    .on('commandFailed', (event) => databaseDuration.observe({ command: event.commandName, outcome: 'failed' }, event.duration / 1000));
  await mongoose.connection.syncIndexes().catch((error) => logger.warn({ err: error }, 'could not sync indexes'));
  logger.info({ database: kind, dataFile, restored }, kind === 'external' ? 'connected to MongoDB' : `started embedded database (${kind})`);
  return {
    uri,
    kind,
    embedded: kind !== 'external',
    dataFile,
    restored,
    close: async () => {
      await mongoose.disconnect();
      await stopEmbedded?.();
    },
  };
}
