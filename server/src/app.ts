import { timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response, type Router } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { pinoHttp } from 'pino-http';
import { ERROR_MESSAGES, TRPC_MAX_BATCH_SIZE } from '@gift/shared';
import type { Env } from './env';
import { checkDatabase } from './db/connect';
import { isDatabaseUnavailable } from './db/mongoErrors';
import { AppError, databaseUnavailable } from './lib/errors';
import { checkJsonDepth, jsonBody, tooDeep, TOO_DEEP } from './lib/jsonBody';
import { createLogger, requestLogging, type Logger } from './lib/logger';
import { adminResources } from './rest/registry';
import { configureBroadcasts } from './modules/broadcasts/broadcasts.service';
import { configureShop } from './modules/shop/shop.service';
import { configureBotSettings } from './modules/config/config.service';
import { resourceRouter } from './http/resource';
import { riskConsoleRouter } from './modules/risk/risk.rest';
import { timelineRouter } from './modules/timeline/timeline.rest';
import { adminLoginRouter } from './modules/accounts/accounts.rest';
import { dashboardRouter } from './modules/dashboard/dashboard.rest';
import { treasuryRouter } from './modules/withdrawals/treasury.rest';
import { booksRouter } from './modules/ledger/books.rest';
import { registerMoneyKinds } from './moneyKinds';
import { alertsRouter } from './modules/alerts/alerts.rest';
import { operatorProofsRouter, playerProofsRouter } from './modules/proofs/proofs.rest';
import { requireAccount, requirePermission } from './http/adminAuth';
import { WEBHOOK_PATH, type BotRuntime } from './modules/bot/botRuntime';
import { createContext } from './http/context';
import { trpcExpressHandler } from './http/trpcExpress';
import { legalPages } from './legalPages';
import { homeShellPage } from './modules/content/homeShell.rest';
import { appRouter } from './trpc/root';
import { metricsRouter, requestMetrics } from './observability';

export interface AppOptions {
  env: Env;
  logger?: Logger;
  /** Folders of the built front ends; default: ../client/dist and ../admin/dist. */
  clientDist?: string;
  adminDist?: string;
  /** The running bot, whose webhook this app serves (none: the webhook path answers 404). */
  bot?: BotRuntime;
  /** The players' API's clock; tests pass a fixed one (a rate window that must not turn mid-test). */
  clock?: () => Date;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Serves a built single-page app under `base`, falling back to its index.html for client-side routes. */
function spa(app: Express, base: string, dist: string, name: string) {
  // the app's own client-side routes: under `base`, and for `/` everything but the APIs and the console
  const routes = base === '/' ? /^\/(?!api\/|trpc\/|admin(\/|$)).*/ : new RegExp(`^${base}(/.*)?$`);
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.get(routes, (_req, res) => {
      res.status(503).type('text').send(`The ${name} is not built yet: run "npm run build".`);
    });
    return;
  }
  // hashed files never change: cached for good; the service worker and the release file are always revalidated
  app.use(
    base,
    express.static(dist, {
      index: false,
      maxAge: '1h',
      setHeaders: (res, file) => {
        const name = path.relative(dist, file).split(path.sep).join('/');
        if (name.startsWith('assets/') || /^workbox-[\w-]+\.js$/.test(name))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else if (/^(sw\.js|builds\/|manifest\.webmanifest)/.test(name)) res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );
  // a missing hashed file is a 404, never the app page a cache-first service worker would keep for good
  app.use(path.posix.join(base, 'assets'), (_req, res) => void res.status(404).type('text').send('Not found'));
  app.get(routes, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(dist, 'index.html'));
  });
}

/**
 * Helmet's options with the CSP of the product. Only the user app runs inside Telegram's web clients' iframes; the
 * console's own headers replace these under /admin: nobody frames it.
 */
export function helmetOptions(area: 'app' | 'console'): HelmetOptions {
  const frameAncestors = area === 'app' ? ["'self'", 'https://web.telegram.org', 'https://*.telegram.org'] : ["'none'"];
  return {
    // X-Frame-Options cannot name Telegram's origins: where framing is allowed, the CSP alone decides
    frameguard: area === 'app' ? false : { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://telegram.org'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // blob: a proof screenshot shown before it is sent (the app), and one fetched with the operator's token (the console)
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'https:', 'wss:'],
        frameAncestors,
        upgradeInsecureRequests: null,
      },
    },
  };
}

/**
 * Helmet's headers for `area`. None of them depends on the request, so helmet runs once, here, against a response that
 * records what it sets and removes, and every answer gets the same headers in one loop instead of through helmet's
 * chain of a dozen middlewares.
 */
export function securityHeaders(area: 'app' | 'console'): RequestHandler {
  const steps: Array<{ name: string; value: string | null }> = [];
  const recorder = {
    setHeader: (name: string, value: string) => void steps.push({ name, value }),
    removeHeader: (name: string) => void steps.push({ name, value: null }),
  };
  helmet(helmetOptions(area))({} as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(`helmet refused its options (${area})`);
  });
  return (_req, res, next) => {
    for (const { name, value } of steps) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** A tRPC query's input travels in the URL: it gets the same depth limit as a body. */
const inputDepthLimit: RequestHandler = (req, _res, next) => {
  for (const value of Object.values(req.query).flat()) if (typeof value === 'string') checkJsonDepth(value);
  next();
};

/** Telegram's updates are a few kB; a larger body is not Telegram's. */
const WEBHOOK_BODY_LIMIT = '64kb';

/**
 * The webhook's door, before a byte of the body is read: 404 while this instance takes no webhook
 * calls, 401 without Telegram's secret header. Only then is the body read, as the APIs read theirs.
 */
function webhookSecretCheck(bot: BotRuntime | undefined): RequestHandler {
  return (req, _res, next) => {
    const secret = bot?.webhookSecret();
    if (!secret) return next(new AppError('NOT_FOUND'));
    const given = Buffer.from(req.get('x-telegram-bot-api-secret-token') ?? '');
    const expected = Buffer.from(secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return next(new AppError('UNAUTHORIZED'));
    next();
  };
}

/**
 * What every answer passes through, whichever route gives it: the security headers (the console's own under /admin),
 * compression, the request's metrics and its log line with its id. The benchmark's twin mounts these same layers.
 */
export function answerLayers(logger: Logger): Router {
  const layers = express.Router();
  layers.use(securityHeaders('app'));
  layers.use('/admin', securityHeaders('console'));
  layers.use(compression());
  layers.use(requestMetrics(new Set(Object.keys(appRouter._def.procedures))));
  layers.use(pinoHttp(requestLogging(logger)));
  return layers;
}

export function createApp(options: AppOptions): Express {
  const { env } = options;
  registerMoneyKinds();
  configureBroadcasts(env);
  configureShop(env);
  configureBotSettings(env);
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-* names the client only when it comes from a proxy the operator configured; by default nobody is trusted
  app.set('trust proxy', env.TRUST_PROXY ?? false);

  app.use(answerLayers(logger));
  app.use(metricsRouter(env));

  // a database that is down or hung answers within the ping's time limit, with the reason
  app.get('/healthz', async (_req, res) => {
    const database = await checkDatabase();
    const uptime = Math.round(process.uptime());
    if (database.up) return void res.json({ status: 'ok', database: 'up', uptime });
    res.set('Retry-After', '5');
    res.status(503).json({ status: 'degraded', database: 'down', reason: database.reason, uptime });
  });

  app.get('/tonconnect-manifest.json', (req, res) => {
    // wallets sign the manifest's host into ton_proof: with PUBLIC_URL set, it is the one the server accepts
    const origin = env.PUBLIC_URL ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.set('Access-Control-Allow-Origin', '*');
    res.json({
      url: origin,
      name: 'Gift Rewards',
      iconUrl: `${origin}/icon-192.png`,
      termsOfUseUrl: `${origin}/terms`,
      privacyPolicyUrl: `${origin}/privacy`,
    });
  });

  legalPages(app);

  const webhookUpdate: RequestHandler = (req, res, next) => options.bot!.webhookHandler()(req, res, next);
  app.post(WEBHOOK_PATH, webhookSecretCheck(options.bot), jsonBody(WEBHOOK_BODY_LIMIT), webhookUpdate);

  // answers of the APIs are one player's or operator's data: no browser or proxy keeps them
  app.use(['/trpc', '/api'], (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  app.use(
    '/trpc',
    inputDepthLimit,
    jsonBody('64kb'),
    trpcExpressHandler({
      router: appRouter,
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      createContext: (opts) => createContext(opts, env, logger, options.clock),
      onError: ({ error, path: procedure }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: error.cause ?? error, procedure }, 'tRPC call failed');
        if (error.cause instanceof AppError && error.cause.code === 'UNAVAILABLE')
          logger.warn({ err: error.cause.cause, procedure }, 'database unavailable');
        if (error.cause instanceof AppError && error.cause.code === 'TELEGRAM_CHECK_FAILED')
          logger.warn({ err: error.cause.cause, procedure }, 'a mission membership check failed at Telegram');
      },
      // a 429 or 503 says when to try again (a batch: the longest wait of its calls)
      responseMeta: ({ errors }) => {
        const retryAfter = Math.max(
          0,
          ...errors.map((error) => (error.cause instanceof AppError ? (error.cause.retryAfterSeconds ?? 0) : 0)),
        );
        return retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {};
      },
    }),
  );

  const admin = express.Router();
  admin.use((_req, res, next) => {
    res.set('Access-Control-Expose-Headers', 'Content-Range');
    next();
  });
  admin.use(jsonBody('100kb'));
  admin.use(adminLoginRouter(env));
  admin.use(requireAccount(env.JWT_SECRET, { totpForMoney: env.NODE_ENV === 'production' }));
  admin.use('/dashboard', dashboardRouter());
  admin.use('/treasury', treasuryRouter());
  admin.use('/books', booksRouter());
  admin.use('/alerts', alertsRouter());
  admin.use('/proofs', requirePermission('user-missions'), operatorProofsRouter());
  admin.use('/risk', requirePermission('users'), riskConsoleRouter());
  admin.use('/timeline', requirePermission('users'), timelineRouter());
  for (const resource of adminResources) admin.use(`/${resource.name}`, resourceRouter(resource));
  admin.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  app.use('/api/admin', admin);
  app.use('/api/proofs', playerProofsRouter(env, options.clock));
  app.use('/api', (_req, _res, next) => next(new AppError('NOT_FOUND')));

  spa(app, '/admin', options.adminDist ?? path.join(REPO_ROOT, 'admin', 'dist'), 'console');
  const clientDist = options.clientDist ?? path.join(REPO_ROOT, 'client', 'dist');
  // a launch: the page's shell carries home's first cover, the largest thing the first screen paints
  if (existsSync(path.join(clientDist, 'index.html'))) app.get('/', homeShellPage(path.join(clientDist, 'index.html')));
  spa(app, '/', clientDist, 'user app');

  const handleError: ErrorRequestHandler = (caught, req, res, _next) => {
    // whatever a handler or body parser threw: only these two fields are read
    const error = caught as { status?: unknown; type?: unknown } | null | undefined;
    const appError = caught instanceof AppError ? caught : isDatabaseUnavailable(caught) ? databaseUnavailable(caught) : undefined;
    if (appError) {
      if (appError.code === 'UNAVAILABLE') req.log?.warn({ err: appError.cause }, 'database unavailable');
      if (appError.retryAfterSeconds) res.set('Retry-After', String(appError.retryAfterSeconds));
      res.status(appError.status).json({
        message: appError.message,
        code: appError.code,
        // the values of the message, so the console can write it in its own language
        ...(Object.keys(appError.params).length ? { params: appError.params } : {}),
        ...(appError.fieldErrors ? { errors: appError.fieldErrors } : {}),
      });
      return;
    }
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413) return void res.status(413).json({ message: 'Request body too large', code: 'BAD_INPUT' });
    if (status === 415)
      return void res.status(415).json({ message: 'Send the body as uncompressed UTF-8 application/json', code: 'BAD_INPUT' });
    if (error?.type === TOO_DEEP) return void res.status(400).json({ message: tooDeep().message, code: 'BAD_INPUT' });
    if (status === 400 && error?.type === 'entity.parse.failed')
      return void res.status(400).json({ message: 'Malformed JSON body', code: 'BAD_INPUT' });
    // any other fault of the request itself (an aborted upload, a wrong length) is the client's, not an error of ours
    if (status >= 400 && status < 500) return void res.status(status).json({ message: ERROR_MESSAGES.BAD_INPUT, code: 'BAD_INPUT' });
    req.log?.error({ err: caught }, 'request failed');
    res.status(500).json({ message: ERROR_MESSAGES.INTERNAL, code: 'INTERNAL' });
  };
  app.use(handleError);
  return app;
}
