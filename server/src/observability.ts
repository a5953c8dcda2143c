import { timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { Env } from './env';
import { databaseGauge, httpDuration, httpRequests, metricsRegistry } from './lib/metrics';
import { broadcastsUnderway } from './modules/broadcasts/broadcastFigures.service';
import { notificationsWaiting, remindersSettledSince } from './modules/notifications/notificationFigures.service';
import { withdrawalsByState } from './modules/withdrawals/withdrawalFigures.service';
import { lastKnownHotWalletBalances } from './modules/withdrawals/payouts.service';

// read from the database when Prometheus asks, so every instance reports the same shared figures
databaseGauge(
  'gift_withdrawals',
  'Withdrawals by state: the payout queue (pending, approved, sending) and its outcomes',
  ['state'],
  async (set) => {
    for (const { state, count } of await withdrawalsByState()) set({ state }, count);
  },
);
databaseGauge('gift_broadcasts', 'Broadcasts being sent and scheduled', ['status'], async (set) => {
  const { sending, scheduled } = await broadcastsUnderway();
  set({ status: 'sending' }, sending);
  set({ status: 'scheduled' }, scheduled);
});
// the last balances read from the chain, never waiting on it: a scrape starts the next read in the background
databaseGauge('gift_hot_wallet_balance', "The hot wallet's last known balance per coin (in the coin's units)", ['coin'], async (set) => {
  for (const [coin, balance] of (await lastKnownHotWalletBalances()).bySymbol) set({ coin }, Number(balance));
});
databaseGauge(
  'gift_hot_wallet_balance_read_timestamp_seconds',
  "When this instance last read the hot wallet's balances",
  [],
  async (set) => {
    const { asOf } = await lastKnownHotWalletBalances();
    if (asOf) set({}, asOf.getTime() / 1000);
  },
);
databaseGauge('gift_notifications_waiting', 'Messages the bot still owes players', [], async (set) => {
  set({}, await notificationsWaiting());
});
databaseGauge(
  'gift_reminders_24h',
  'Reminders of the last 24 hours by kind and outcome (sent, skipped, failed)',
  ['kind', 'status'],
  async (set) => {
    for (const { kind, status, count } of await remindersSettledSince(new Date(Date.now() - 24 * 3600_000))) set({ kind, status }, count);
  },
);

/**
 * Counts and times every request by what it asked for, never by who or which record: a tRPC call by its procedure
 * (one the router has, else `trpc:unknown`), a REST call by its route pattern (`/api/admin/users/:id`), anything
 * else as `static` (pages and files) or `unmatched`. A procedure's label is made once, here, not on every call.
 */
export function requestMetrics(procedures: ReadonlySet<string>): RequestHandler {
  const procedureLabels = new Map([...procedures].map((name) => [name, `trpc:${name}`]));
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const route = routeOf(req.baseUrl, req.path, (req.route as { path?: unknown } | undefined)?.path, procedureLabels, req.originalUrl);
      const method = req.method.length <= 7 ? req.method : 'OTHER';
      httpDuration.observe({ route, method }, (performance.now() - started) / 1000);
      httpRequests.inc({ route, method, status: String(res.statusCode) });
    });
    next();
  };
}

function routeOf(baseUrl: string, pathname: string, pattern: unknown, procedureLabels: ReadonlyMap<string, string>, url: string): string {
  if (baseUrl === '/trpc') {
    const called = pathname.slice(1);
    if (called.includes(',')) return 'trpc:batch';
    return procedureLabels.get(called) ?? 'trpc:unknown';
  }
  if (typeof pattern === 'string') return `${baseUrl}${pattern}`;
  // refused before a route matched (a missing token), or no route at all
  return /^\/(api|trpc)(\/|\?|$)/.test(url) ? 'unmatched' : 'static';
}

/**
 * `GET /metrics` in Prometheus' text format. In development it is open on the product's port; in production it
 * answers only with `Authorization: Bearer <METRICS_TOKEN>`, and 404 when no token is set.
 */
export function metricsRouter(env: Env): Router {
  const router = Router();
  const token = env.METRICS_TOKEN ? Buffer.from(`Bearer ${env.METRICS_TOKEN}`) : null;
  router.get('/metrics', async (req, res) => {
    if (env.NODE_ENV === 'production') {
      if (!token) return void res.status(404).type('text').send('Not found');
      const given = Buffer.from(req.get('authorization') ?? '');
      if (given.length !== token.length || !timingSafeEqual(given, token)) return void res.status(401).type('text').send('Unauthorized');
    }
    res.set('Cache-Control', 'no-store');
    res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
  return router;
}
