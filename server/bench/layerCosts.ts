/**
 * `npx tsx bench/layerCosts.ts`: what each layer in front of the product's handlers costs per call, measured without a
 * database: one small Express app per set of layers, each answering the same fixed JSON (about a home answer's size),
 * called over loopback with 16 in flight; this process's CPU time per call, the median of interleaved rounds.
 *
 * Knobs: LAYER_REQUESTS per round (default 2000), LAYER_ROUNDS (default 7), LAYER_GZIP=1 (the client asks for gzip),
 * LAYER_EACH=1 (each answer layer alone in front of tRPC too, and helmet as its docs mount it; then each layer's own
 * work in process, without sockets), LAYER_PROFILE=<file prefix> with LAYER_PROFILE_SIDE=<name>
 * (a CPU profile of each round of that side, to open in Chrome's DevTools).
 */
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { initTRPC } from '@trpc/server';
import * as trpcExpress from '@trpc/server/adapters/express';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { answerLayers, helmetOptions, securityHeaders } from '../src/app';
import { trpcExpressHandler } from '../src/http/trpcExpress';
import { answerTransformer } from '../src/http/answerTransformer';
import { benchEnv, listen, load, type Call } from './loopback';
import { createLogger, requestLogging } from '../src/lib/logger';
import compression from 'compression';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { requestMetrics } from '../src/observability';

const REQUESTS = Number(process.env.LAYER_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.LAYER_ROUNDS ?? 7);

/** An answer shaped like home's: a few dozen missions with their coins, some dates. */
const answer = {
  covers: Array.from({ length: 3 }, (_, i) => ({ id: `cover${i}`, image: `/uploads/cover-${i}.webp`, link: null })),
  missions: Array.from({ length: 24 }, (_, i) => ({
    id: `65f1c0ffee${String(i).padStart(14, '0')}`,
    title: `Mission number ${i}`,
    reward: '12.5',
    coin: { id: 'coin', symbol: 'STAR', image: '/uploads/star.webp' },
    status: i % 3 ? 'open' : 'done',
    startedAt: i % 3 ? null : new Date(1_700_000_000_000 + i),
  })),
};

/** An app answering `answer` behind `layers`: with `res.json`, or a tRPC procedure through tRPC's adapter or the product's. */
function app(layers: RequestHandler[], handler: 'json' | 'trpc' | 'lean'): Express {
  const server = express();
  server.disable('x-powered-by');
  for (const layer of layers) server.use(layer);
  if (handler === 'json') server.get('/home', (_req, res) => void res.json(answer));
  else {
    const t = initTRPC.create({ transformer: answerTransformer });
    const router = t.router({ home: t.procedure.query(() => answer) });
    server.use(
      '/trpc',
      express.json(),
      handler === 'trpc'
        ? trpcExpress.createExpressMiddleware({ router })
        : trpcExpressHandler({ router, createContext: () => Promise.resolve({}) }),
    );
  }
  return server;
}

/**
 * Each layer's own JavaScript per call, in this process without sockets or bytes on the wire: a stand-in request for
 * `GET /trpc/home` and a stand-in response that keeps its headers in a map and finishes at once; the median of
 * `ROUNDS` rounds of 20,000 calls. Compression is left out: its work is on the answer's bytes.
 */
function inProcess(layers: Record<string, RequestHandler>): Array<{ name: string; cpu: number[] }> {
  class StandInResponse extends EventEmitter {
    statusCode = 200;
    readonly headers = new Map<string, unknown>();
    setHeader(name: string, value: unknown) {
      this.headers.set(name.toLowerCase(), value);
      return this;
    }
    getHeader(name: string) {
      return this.headers.get(name.toLowerCase());
    }
    removeHeader(name: string) {
      this.headers.delete(name.toLowerCase());
    }
  }
  const call = (layer: RequestHandler) => {
    const req = Object.assign(new EventEmitter(), {
      method: 'GET',
      url: '/trpc/home',
      originalUrl: '/trpc/home',
      baseUrl: '/trpc',
      path: '/home',
      headers: { host: '127.0.0.1', authorization: 'tma a-launch' },
    });
    const res = new StandInResponse();
    layer(req as unknown as Request, res as unknown as Response, () => undefined);
    res.emit('finish');
  };
  const cpu = Object.keys(layers).map(() => [] as number[]);
  for (let round = 0; round <= ROUNDS; round++)
    Object.values(layers).forEach((layer, i) => {
      const before = process.cpuUsage();
      for (let n = 0; n < 20_000; n++) call(layer);
      const used = process.cpuUsage(before);
      // the first round warms up
      if (round) cpu[i]!.push((used.user + used.system) / 20_000);
    });
  return Object.keys(layers).map((name, i) => ({ name, cpu: cpu[i]! }));
}

async function main() {
  const logger = createLogger(benchEnv().LOG_LEVEL);
  const each: Record<string, RequestHandler> = {
    // helmet as its docs mount it (every header worked out on every call), and the product's replay of what it sets
    helmet: helmet(helmetOptions('app')),
    'security headers': securityHeaders('app'),
    compression: compression(),
    metrics: requestMetrics(new Set(['home'])),
    'pino-http': pinoHttp(requestLogging(logger)),
  };
  const only = Object.entries(each).map(([name, layer]) => ({ name: `${name} + tRPC`, app: app([layer], 'lean'), path: '/trpc/home' }));
  const sides: Array<{ name: string; app: Express; path: string }> = [
    ...(process.env.LAYER_EACH ? only : []),
    { name: 'res.json', app: app([], 'json'), path: '/home' },
    { name: 'layers + res.json', app: app([answerLayers(logger)], 'json'), path: '/home' },
    { name: "tRPC's Express adapter", app: app([], 'trpc'), path: '/trpc/home' },
    { name: 'trpcExpressHandler', app: app([], 'lean'), path: '/trpc/home' },
    { name: "layers + tRPC's adapter", app: app([answerLayers(logger)], 'trpc'), path: '/trpc/home' },
    { name: 'layers + trpcExpressHandler', app: app([answerLayers(logger)], 'lean'), path: '/trpc/home' },
  ];
  const servers = await Promise.all(sides.map((side) => listen(side.app)));
  const headers: Record<string, string> = process.env.LAYER_GZIP ? { 'accept-encoding': 'gzip' } : {};
  const cpu = sides.map(() => [] as number[]);
  const call = (path: string) => (): Call => ({ method: 'GET', path, headers });
  for (let i = 0; i < sides.length; i++) await load(servers[i]!.port, 500, call(sides[i]!.path), { maxMs: 60_000, concurrency: 16 });
  const profiled = process.env.LAYER_PROFILE ? sides.findIndex((side) => side.name === process.env.LAYER_PROFILE_SIDE) : -1;
  const profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < sides.length; i++) {
      if (i === profiled) await profiler.post('Profiler.start');
      const before = process.cpuUsage();
      const run = await load(servers[i]!.port, REQUESTS, call(sides[i]!.path), { maxMs: 60_000, concurrency: 16 });
      const used = process.cpuUsage(before);
      if (run.failures) throw new Error(`${sides[i]!.name}: ${run.firstFailure}`);
      cpu[i]!.push((used.user + used.system) / REQUESTS);
      if (i === profiled) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(`${process.env.LAYER_PROFILE}.${round}.cpuprofile`, JSON.stringify(profile));
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`CPU µs per call (this process: server and load generator), median of ${ROUNDS} rounds of ${REQUESTS}`);
  sides.forEach((side, i) =>
    console.log(`${side.name.padEnd(28)}${median(cpu[i]!).toFixed(0).padStart(6)}   ${cpu[i]!.map((v) => v.toFixed(0)).join(' ')}`),
  );
  if (process.env.LAYER_EACH) {
    const { compression: _bytes, ...own } = each;
    console.log(`\neach layer's own work, in process (stand-in request and response), CPU µs per call, median of ${ROUNDS} rounds`);
    for (const { name, cpu: used } of inProcess(own))
      console.log(`${name.padEnd(28)}${median(used).toFixed(1).padStart(6)}   ${used.map((v) => v.toFixed(1)).join(' ')}`);
  }
  await Promise.all(servers.map((server) => server.close()));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
