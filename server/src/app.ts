import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type ErrorRequestHandler, type Express } from 'express';
import helmet from 'helmet';
import mongoose from 'mongoose';
import { pinoHttp } from 'pino-http';
import * as trpcExpress from '@trpc/server/adapters/express';
import { ERROR_MESSAGES } from '@gift/shared';
import type { Env } from './env';
import { AppError } from './lib/errors';
import { createLogger, type Logger } from './lib/logger';
import { requireAccount } from './rest/adminAuth';
import { adminResources } from './rest/registry';
import { resourceRouter } from './rest/resource';
import { adminLoginRouter } from './modules/accounts/accounts.rest';
import { dashboardRouter } from './modules/dashboard/dashboard.rest';
import { telegramWebhook } from './modules/referrals/bot.service';
import { createContext } from './trpc/context';
import { appRouter } from './trpc/root';

export interface AppOptions {
  env: Env;
  logger?: Logger;
  /** Folders of the built front ends; default: ../client/dist and ../admin/dist. */
  clientDist?: string;
  adminDist?: string;
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
  app.use(base, express.static(dist, { index: false, maxAge: '1h', setHeaders: (res, file) => {
    if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  } }));
  app.get(routes, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(dist, 'index.html'));
  });
}

export function createApp(options: AppOptions): Express {
  const { env } = options;
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  const app = express();
  app.disable('x-powered-by');
  // behind a reverse proxy (docker-compose, a PaaS) the origin comes from X-Forwarded-*
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');

  app.use(
    helmet({
      // the mini app runs inside Telegram's web clients' iframes
      frameguard: false,
      crossOriginEmbedderPolicy: false,
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://telegram.org'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", 'https:', 'wss:'],
          frameAncestors: ["'self'", 'https://web.telegram.org', 'https://*.telegram.org'],
          upgradeInsecureRequests: null,
        },
      },
    }),
  );
  app.use(pinoHttp({ logger, autoLogging: { ignore: (req) => req.url === '/healthz' } }));

  app.get('/healthz', async (_req, res) => {
    const up = mongoose.connection.readyState === 1;
    let database = up ? 'up' : 'down';
    if (up) {
      try {
        await mongoose.connection.db!.admin().command({ ping: 1 });
      } catch {
        database = 'down';
      }
    }
    res.status(database === 'up' ? 200 : 503).json({ status: database === 'up' ? 'ok' : 'degraded', database, uptime: Math.round(process.uptime()) });
  });

  app.get('/tonconnect-manifest.json', (req, res) => {
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.set('Access-Control-Allow-Origin', '*');
    res.json({
      url: origin,
      name: 'Gift Rewards',
      iconUrl: `${origin}/icon-192.png`,
      termsOfUseUrl: `${origin}/terms`,
      privacyPolicyUrl: `${origin}/privacy`,
    });
  });

  app.post('/telegram/webhook/:secret', express.json({ limit: '1mb' }), telegramWebhook(env, logger));

  app.use(
    '/trpc',
    express.json({ limit: '64kb' }),
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      createContext: (opts) => createContext(opts, env, logger),
      onError: ({ error, path: procedure }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: error.cause ?? error, procedure }, 'tRPC call failed');
      },
    }),
  );

  const admin = express.Router();
  admin.use((_req, res, next) => {
    res.set('Access-Control-Expose-Headers', 'Content-Range');
    next();
  });
  admin.use(express.json({ limit: '100kb' }));
  admin.use(adminLoginRouter(env));
  admin.use(requireAccount(env.JWT_SECRET));
  admin.use('/dashboard', dashboardRouter());
  for (const resource of adminResources) admin.use(`/${resource.name}`, resourceRouter(resource));
  admin.use((_req, _res, next) => next(new AppError('NOT_FOUND')));
  app.use('/api/admin', admin);
  app.use('/api', (_req, _res, next) => next(new AppError('NOT_FOUND')));

  spa(app, '/admin', options.adminDist ?? path.join(REPO_ROOT, 'admin', 'dist'), 'console');
  spa(app, '/', options.clientDist ?? path.join(REPO_ROOT, 'client', 'dist'), 'user app');

  const handleError: ErrorRequestHandler = (error, req, res, _next) => {
    if (error instanceof AppError) {
      res.status(error.status).json({ message: error.message, code: error.code, ...(error.fieldErrors ? { errors: error.fieldErrors } : {}) });
      return;
    }
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413) return void res.status(413).json({ message: 'Request body too large', code: 'BAD_INPUT' });
    if (status === 400 && error?.type === 'entity.parse.failed') return void res.status(400).json({ message: 'Malformed JSON body', code: 'BAD_INPUT' });
    req.log?.error({ err: error }, 'request failed');
    res.status(500).json({ message: ERROR_MESSAGES.INTERNAL, code: 'INTERNAL' });
  };
  app.use(handleError);
  return app;
}
