import mongoose from 'mongoose';
import { EnvError, type Env } from '../env';
import type { Logger } from '../lib/logger';

/** mongodb://host:port/?opts + name -> mongodb://host:port/name?opts */
export function withDatabaseName(uri: string, name: string): string {
  const [base, query] = uri.split('?');
  return `${base!.replace(/\/$/, '')}/${name}${query ? `?${query}` : ''}`;
}

export interface Database {
  uri: string;
  /** 'external' (MONGO_URL), 'mongod' or 'congodb' (embedded). */
  kind: 'external' | 'mongod' | 'congodb';
  embedded: boolean;
  close: () => Promise<void>;
}

/** Connects mongoose to MONGO_URL, or starts the embedded database when it is unset. */
export async function connectDatabase(env: Env, logger: Logger): Promise<Database> {
  let uri = env.MONGO_URL;
  let kind: Database['kind'] = 'external';
  let stopEmbedded: (() => Promise<unknown>) | undefined;
  if (!uri) {
    const { startEmbeddedMongo } = await import('./embeddedMongo.mjs');
    const embedded = await startEmbeddedMongo().catch((error: unknown) => {
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
  }
  mongoose.set('strictQuery', true);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000 });
  await mongoose.connection.syncIndexes().catch((error) => logger.warn({ err: error }, 'could not sync indexes'));
  logger.info({ database: kind }, kind === 'external' ? 'connected to MongoDB' : `started embedded database (${kind})`);
  return {
    uri,
    kind,
    embedded: kind !== 'external',
    close: async () => {
      await mongoose.disconnect();
      await stopEmbedded?.();
    },
  };
}
