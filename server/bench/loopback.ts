// What the benchmarks share: loopback HTTP calls with a fixed number in flight, percentiles, the product on a
// random port, and the embedded database in a process of its own.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type express from 'express';
import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';
import { loadEnv } from '../src/env';

/** The bot token launches are signed with; it never leaves loopback. */
export const BOT_TOKEN = '7000000001:AAbenchmarkTokenUsedOnlyOnLoopback_0123';

/** The product's configuration in a benchmark: production, with the bench's own secret and bot token. */
export function benchEnv() {
  return loadEnv({
    NODE_ENV: 'production',
    PORT: '0',
    MONGO_URL: 'mongodb://127.0.0.1/unused',
    JWT_SECRET: 'benchmark-secret-'.padEnd(48, 'x'),
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    // pino-http would log every request at info; a production deployment logging to a pipe pays that too, but it measures the terminal here
    LOG_LEVEL: 'warn',
  });
}

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request; a keep-alive socket the server closed just before reuse is retried once, as Node's docs advise. */
export async function send(agent: http.Agent, port: number, call: Call): Promise<{ status: number; body: string }> {
  try {
    return await sendOnce(agent, port, call);
  } catch (error) {
    if ((error as { reusedSocket?: boolean; code?: string }).reusedSocket && (error as { code?: string }).code === 'ECONNRESET')
      return sendOnce(agent, port, call);
    throw error;
  }
}

function sendOnce(agent: http.Agent, port: number, call: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: call.method,
        path: call.path,
        headers: {
          ...(call.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(call.body) } : {}),
          ...call.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(call.body);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface Run {
  latencies: number[];
  failures: number;
  firstFailure?: string;
  seconds: number;
}

/** Fires `count` calls (call(i) builds the i-th) with a fixed number in flight, stopping early at the time bound. */
export async function load(
  port: number,
  count: number,
  call: (i: number) => Call,
  { maxMs, concurrency }: { maxMs: number; concurrency: number },
): Promise<Run> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const run: Run = { latencies: [], failures: 0, seconds: 0 };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count && performance.now() - started < maxMs) {
      const request = call(next++);
      const t0 = performance.now();
      const res = await send(agent, port, request);
      run.latencies.push(performance.now() - t0);
      if (res.status >= 300) {
        run.failures++;
        run.firstFailure ??= `${res.status} ${res.body.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  run.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return run;
}

export async function listen(app: express.Express): Promise<{ port: number; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  // as behind a reverse proxy: connections stay open between calls instead of Node's 5 s default
  server.keepAliveTimeout = 65_000;
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the embedded database (server/src/db/embeddedMongo.mjs) in a child process. */
export async function startDatabase(): Promise<{ uri: string; kind: string; stop: () => void }> {
  const child = fork(path.join(__dirname, 'database.mjs'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => {
      throw new Error('the database process exited');
    }),
  ])) as [{ uri: string; kind: string }];
  return { ...ready, stop: () => child.disconnect() };
}

interface BenchDatabase {
  uri: string;
  kind: string;
  stop: () => unknown;
}

/**
 * Runs a benchmark against a fresh database `name` (emptied and indexed), on the embedded engine in a process of its
 * own unless `start` says otherwise; disconnects and stops it after. A failure is printed and exits with 1.
 */
export function runOnFreshDatabase(
  name: string,
  body: (database: BenchDatabase) => Promise<void>,
  start: () => Promise<BenchDatabase> = startDatabase,
): void {
  const run = async () => {
    const database = await start();
    try {
      await mongoose.connect(withDatabaseName(database.uri, name));
      await mongoose.connection.dropDatabase();
      await mongoose.connection.syncIndexes();
      await body(database);
    } finally {
      await mongoose.disconnect();
      await database.stop();
    }
  };
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
