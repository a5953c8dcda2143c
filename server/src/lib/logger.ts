import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import type { Options } from 'pino-http';

/** Structured JSON logs (to stdout unless a destination is given); secrets are redacted wherever they might appear. */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  const options = {
    level,
    redact: {
      // the webhook's secret token is derived from the bot token
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-telegram-bot-api-secret-token"]',
        'password',
        '*.password',
        'botToken',
        '*.botToken',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type Logger = ReturnType<typeof createLogger>;

const pathOf = (req: IncomingMessage & { originalUrl?: string }) => (req.originalUrl ?? req.url ?? '').split('?')[0];

/**
 * A request id from the proxy in front is kept only when it is a UUID, as the server's own are; anything
 * else (a label a client chose to plant in the logs) is replaced by a new one.
 */
const FORWARDED_REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request as its log line shows it: the method and the path without the query. */
const requestFields = (req: IncomingMessage) => ({ method: req.method, path: pathOf(req) });

/**
 * pino-http's options for one readable line per request: method, path (no query: inputs stay out of the logs),
 * status, milliseconds and the request id, which is also answered in X-Request-Id. No headers are logged.
 *
 * One child logger per request, bound to the id alone: pino-http binds what it calls the request (here under `reqId`,
 * serialized to the id) to the child it hands out as `req.log`, so lines written while handling a request (errors)
 * carry its id; the request's method and path join its own line only. With `quietReqLogger` it would make two
 * children (the id, then the request under it), about 20 µs a request; the serializers get the raw objects and
 * read only what the line shows (`wrapSerializers: false`), instead of copying every header first.
 */
export function requestLogging(logger: Logger): Options<IncomingMessage, ServerResponse> {
  return {
    logger,
    genReqId: (req, res) => {
      const forwarded = req.headers['x-request-id'];
      const id = typeof forwarded === 'string' && FORWARDED_REQUEST_ID.test(forwarded) ? forwarded : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { req: 'reqId', responseTime: 'ms' },
    wrapSerializers: false,
    serializers: {
      reqId: (req: IncomingMessage & { id: unknown }) => req.id,
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    customSuccessObject: (req, _res, fields: object) => ({ req: requestFields(req), ...fields }),
    customErrorObject: (req, _res, _error, fields: object) => ({ req: requestFields(req), ...fields }),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res, ms) => `${req.method} ${pathOf(req)} ${res.statusCode} ${Math.round(ms)} ms`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode}`,
    autoLogging: { ignore: (req) => req.url === '/healthz' },
  };
}
